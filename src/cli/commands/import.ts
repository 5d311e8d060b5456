import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { AGENTS } from '../../core/trace/model';
import { describeSkipped } from '../../core/trace/skipped';
import { DEFAULT_READ_LIMITS } from '../../core/import/limits';
import { importSessions } from '../../core/import/importer';
import { isBlockingIo, setBlockingIo } from '../../core/util/io';
import { TraceStore } from '../../core/store/traceStore';
import { createWorkerPool } from '../../core/pool/pool';
import { BundleError } from '../../core/team/bundle';
import { importBundle, type ImportBundleResult } from '../../core/team/importBundle';
import type { AllowedSigners } from '../../core/team/allowedSigners';
import { chooseAllowedSigners, loadAllowedSigners } from '../../core/team/allowedSignersSource';
import { describeSigner } from '../../core/team/bundleSignature';
import { integer, oneOf, parse, UsageError } from '../args';
import { progressOf, type Output } from '../output';
import { redactionPatterns } from './redactionFlags';
import { storeDirFor } from '../store';

export async function importCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parse(argv, {
    from: { type: 'string' },
    bundle: { type: 'string', multiple: true },
    workspace: { type: 'string' },
    'allowed-signers': { type: 'string' },
    agent: { type: 'string' },
    store: { type: 'string' },
    workers: { type: 'string' },
    'max-output-chars': { type: 'string' },
    'redact-pattern': { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  const named = (values.bundle as unknown as string[] | undefined) ?? [];
  // `--bundle a b c` as the help writes it: the words after it are bundles too (a shell glob gives that form)
  if (positionals.length > 0 && named.length === 0)
    throw new UsageError(`unexpected argument(s): ${positionals.join(' ')} (bundles go after --bundle)`);
  const bundles = [...named, ...positionals].map((b) => resolve(b));
  if (typeof values.from !== 'string' && bundles.length === 0)
    throw new UsageError('--from <folder> or --bundle <file> is required');
  for (const bundle of bundles) if (!existsSync(bundle)) throw new UsageError(`--bundle: no such file: ${bundle}`);
  const workspace = resolve(typeof values.workspace === 'string' ? values.workspace : process.cwd());
  if (bundles.length > 0 && !existsSync(workspace)) throw new UsageError(`--workspace: no such folder: ${workspace}`);
  const store = new TraceStore(storeDirFor(values.store, out));
  const json = values.json === true;
  const extraPatterns = await redactionPatterns(
    store.dir,
    values['redact-pattern'] as unknown as string[] | undefined,
    out,
  );
  const sessions =
    typeof values.from === 'string' ? await importFrom(values, store, extraPatterns, out, signal) : undefined;
  if (bundles.length === 0) {
    if (json) out.result(JSON.stringify(sessions, null, 2));
    return 0;
  }
  if (values['allowed-signers'] === '') throw new UsageError('--allowed-signers needs a file');
  const allowedSigners = await allowedSignersFor(values['allowed-signers'], workspace, out, json);
  const { results, failed } = await importBundles(bundles, store, workspace, out, json, allowedSigners, extraPatterns);
  if (json) out.result(JSON.stringify({ ...sessions, store: store.dir, bundles: results }, null, 2));
  return failed ? 1 : 0;
}

/** A bundle's --json entry: its counts (warnings as a count and the messages, as for --from), or why it was refused. */
type BundleOutcome =
  | ({ path: string; warningMessages: string[] } & Omit<ImportBundleResult, 'warnings'> & { warnings: number })
  | { path: string; error: string };

/** Each bundle on its own: a refused one is reported (exit 1) and the others are still imported. */
async function importBundles(
  paths: string[],
  store: TraceStore,
  workspace: string,
  out: Output,
  json: boolean,
  allowedSigners: AllowedSigners | undefined,
  extraPatterns: string[],
): Promise<{ results: BundleOutcome[]; failed: boolean }> {
  const results: BundleOutcome[] = [];
  let failed = false;
  for (const path of paths) {
    try {
      const result = await importBundle({ store, path, workspace, allowedSigners, extraPatterns });
      results.push({ path, ...result, warnings: result.warnings.length, warningMessages: result.warnings });
      if (json) continue;
      for (const message of result.warnings) out.warn(`${basename(path)}: ${message}`);
      const { bundle } = result;
      out.result(
        `Imported ${result.imported} session(s) from ${path} (${describeSigner(result.signature, bundle.exportedBy)}; newest session ${bundle.newestSessionAt || 'of an unknown time'}, from ${bundle.workspaceName || 'a workspace'}), ${result.duplicates} already in the store, ${result.invalid} invalid; ${result.redactions} secret(s) redacted; ${result.warnings.length} warning(s). Workspace: ${workspace}; store: ${store.dir}`,
      );
    } catch (error) {
      // unreadable (permissions, a folder) is refused like a damaged bundle: the others are still imported
      const message = error instanceof BundleError ? error.message : `bundle ${path}: ${(error as Error).message}`;
      failed = true;
      results.push({ path, error: message });
      out.warn(message);
    }
  }
  return { results, failed };
}

/**
 * The allowed signers a signed bundle is checked against: --allowed-signers, else the user's git config
 * (gpg.ssh.allowedSignersFile); none set: signatures are checked but verify nobody. A file that cannot be read is a
 * warning, and the bundles are still imported (their names self-declared).
 */
async function allowedSignersFor(
  flag: string | boolean | undefined,
  workspace: string,
  out: Output,
  json: boolean,
): Promise<AllowedSigners | undefined> {
  const choice = await chooseAllowedSigners(
    workspace,
    typeof flag === 'string' ? { value: resolve(flag), from: '--allowed-signers' } : undefined,
  );
  if (choice === undefined) return undefined;
  const loaded = typeof choice === 'string' ? choice : await loadAllowedSigners(choice);
  if (typeof loaded === 'string') {
    out.warn(`${loaded}: no signer is verified`);
    return undefined;
  }
  if (!json) for (const warning of loaded.warnings) out.warn(warning);
  return loaded;
}

/** `--from`: the sessions of every agent under a folder. Returns the --json summary (printed by the caller). */
async function importFrom(
  values: Record<string, string | boolean | undefined>,
  store: TraceStore,
  extraPatterns: string[],
  out: Output,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const from = resolve(values.from as string);
  if (!existsSync(from)) throw new UsageError(`--from: no such file or folder: ${from}`);
  const agent = oneOf('agent', values.agent, ['auto', ...AGENTS] as const, 'auto');
  const workers = integer('workers', values.workers) ?? availableParallelism();
  const maxOutputChars = integer('max-output-chars', values['max-output-chars']) ?? DEFAULT_READ_LIMITS.maxOutputChars;
  if (maxOutputChars < 1000) throw new UsageError('--max-output-chars: at least 1000');
  // Bundled CLI: parse in worker threads (started only when a file needs reading); from sources (tests) the
  // worker bundle is absent → in-process.
  const pool =
    workers > 0 && existsSync(join(__dirname, 'combee-worker.js')) ? createWorkerPool(__dirname, workers) : undefined;
  // This thread only lists files and hands them out: blocking calls are cheaper, and nothing else waits on it.
  const wasBlocking = isBlockingIo();
  setBlockingIo(true);
  const progress = values.json ? undefined : progressOf(out, 'importing');
  try {
    const summary = await importSessions({
      from,
      store,
      agent,
      redaction: { extraPatterns },
      limits: { ...DEFAULT_READ_LIMITS, maxOutputChars },
      signal,
      concurrency: pool ? pool.size * 2 : 2,
      runTask: pool ? (task) => pool.runImport(task, signal) : undefined,
      runBatch: pool ? (tasks) => pool.runImportBatch(tasks, signal) : undefined,
      onProgress: progress ? (done, total, path) => progress.update(done, total, basename(path)) : undefined,
    });
    progress?.stop();
    const { warningMessages, traceIds, ...counts } = summary;
    void traceIds;
    const result = { ...counts, store: store.dir, warningMessages };
    if (!values.json) {
      for (const message of warningMessages) out.warn(message);
      const agents =
        Object.entries(summary.byAgent)
          .map(([name, c]) => `${name}: ${c.sessions}`)
          .join(', ') || 'none';
      const resumed = summary.resumedFiles > 0 ? ` (${summary.resumedFiles} resumed where they stopped)` : '';
      out.result(
        `Imported ${summary.sessions} session(s) (${agents}) from ${summary.files - summary.unchangedFiles} file(s)${resumed}, ${summary.unchangedFiles} unchanged; ${summary.steps} steps, ${summary.toolCalls} tool calls, ${summary.toolErrors} tool errors; ${summary.redactions} secret(s) redacted; ${summary.warnings} warning(s). Store: ${store.dir}`,
      );
      const skipped = describeSkipped(summary);
      if (skipped) out.result(skipped);
    }
    return result;
  } finally {
    progress?.stop();
    setBlockingIo(wasBlocking);
    await pool?.destroy();
  }
}
