import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { TraceStore } from '../../core/store/traceStore';
import { BUNDLE_SIGNATURE_NAMESPACE, SIGNATURE_SUFFIX } from '../../core/team/bundleSignature';
import { exportBundle } from '../../core/team/importBundle';
import { parse, UsageError } from '../args';
import type { Output } from '../output';
import { storeDirFor } from '../store';

/** Who the bundle says it is from: COMBEE_AUTHOR, else the login name (no git, no e-mail address by default). */
function defaultAuthor(env: NodeJS.ProcessEnv): string {
  if (env.COMBEE_AUTHOR?.trim()) return env.COMBEE_AUTHOR.trim();
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

export async function exportCommand(argv: string[], out: Output): Promise<number> {
  const { values } = parse(argv, {
    bundle: { type: 'string' },
    workspace: { type: 'string' },
    store: { type: 'string' },
    since: { type: 'string' },
    author: { type: 'string' },
    'all-workspaces': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (typeof values.bundle !== 'string' || values.bundle === '') throw new UsageError('--bundle <file> is required');
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  if (!existsSync(workspace)) throw new UsageError(`--workspace: no such folder: ${workspace}`);
  if (typeof values.since === 'string' && Number.isNaN(Date.parse(values.since)))
    throw new UsageError(`--since must be a date (such as 2026-11-01): ${values.since}`);
  if (values.author === '') throw new UsageError('--author needs a name');
  const store = new TraceStore(storeDirFor(values.store, out));
  const result = await exportBundle({
    store,
    workspace,
    out: resolve(values.bundle),
    exportedBy: typeof values.author === 'string' ? values.author : defaultAuthor(process.env),
    since: typeof values.since === 'string' ? values.since : undefined,
    allWorkspaces: values['all-workspaces'] === true,
  });
  // a signature beside the old bytes would refuse the new ones: the bundle is signed again, by its exporter
  const staleSignature = `${result.path}${SIGNATURE_SUFFIX}`;
  const hadSignature = existsSync(staleSignature);
  if (hadSignature) await rm(staleSignature, { force: true });
  const signWith = `ssh-keygen -Y sign -n ${BUNDLE_SIGNATURE_NAMESPACE} -f <your key> ${result.path}`;
  if (result.traces === 0 && !values.json)
    out.warn(`no sessions of ${workspace} in the store${values.since ? ` since ${values.since}` : ''}`);
  if (values.json)
    out.result(
      JSON.stringify({ ...result, workspace, store: store.dir, removedSignature: hadSignature, signWith }, null, 2),
    );
  else {
    out.result(
      `Exported ${result.traces} session(s) of ${workspace} to ${result.path} (${result.bytes} bytes; ${result.redactions} secret(s) redacted). Import it with: combee import --bundle <file> --workspace <folder>`,
    );
    if (hadSignature) out.warn(`${staleSignature} was the signature of the bundle this export replaced: removed`);
    out.result(
      `To sign it (optional; its signer then counts as verified where your key is in the team's allowed signers): ${signWith}  (writes ${result.path}${SIGNATURE_SUFFIX} beside it; commit both)`,
    );
  }
  return 0;
}
