import { basename, resolve } from 'node:path';
import type { TraceStore } from '../store/traceStore';
import type { Trace } from '../trace/model';
import { createRedactor } from '../trace/redact';
import { createWorkspaceMatcher } from '../trace/workspaceMatch';
import { BundleError, writeBundle, type BundleHeader } from './bundle';
import { streamBundle, type BundleReadSummary, type ReadBundleOptions } from './bundleReader';
import type { AllowedSigners } from './allowedSigners';
import { checkBundleSignature, signatureWarning, signedContributor, type BundleSignature } from './bundleSignature';
import { cleanName, fromPortable, portableFor } from './portable';

export interface ImportBundleOptions extends ReadBundleOptions {
  store: TraceStore;
  path: string;
  /** The importing workspace folder: the bundle's sessions are placed inside it. */
  workspace: string;
  /** The time of the import (default: now): no session is dated after it or after the bundle's export. */
  now?: Date;
  /** The user's allowed signers: a bundle signed by one of their keys counts its signer as verified. */
  allowedSigners?: AllowedSigners;
  /** The user's own redaction patterns (RE2), applied with the built-in rules; invalid ones are warnings. */
  extraPatterns?: string[];
}

export interface ImportBundleResult {
  bundle: BundleHeader;
  /** Its `.sig`: verified (the signer is the contributor), unverified, unreadable, or none. */
  signature: BundleSignature;
  imported: number;
  /** Sessions the store already holds (by id): kept as they are. */
  duplicates: number;
  /** Lines of the bundle that were no valid session. */
  invalid: number;
  /** Secrets removed on import (the bundle is untrusted input). */
  redactions: number;
  warnings: string[];
}

const MAX_FOLDER_NOTES = 5;

/**
 * Imports a team bundle's sessions not in the store yet, streamed: each session is rewritten and staged in the store
 * as it is read, and published only once the bundle's trailer verifies. A refused bundle (BundleError) imports
 * nothing and leaves nothing staged; so does any other failure.
 */
export async function importBundle(options: ImportBundleOptions): Promise<ImportBundleResult> {
  const { store, path, workspace } = options;
  // before any session is read: a signature that does not verify refuses the bundle (see bundleSignature.ts)
  const invalidPatterns: string[] = [];
  const signature = await checkBundleSignature(path, {
    allowedSigners: options.allowedSigners,
    now: (options.now ?? new Date()).getTime(),
  });
  // the built-in rules without home folders: the placeholder becomes this workspace's absolute folder
  const redactor = createRedactor({ homePaths: false, extraPatterns: options.extraPatterns }, (source, error) =>
    invalidPatterns.push(`invalid redaction pattern ${JSON.stringify(source)}: ${error}`),
  );
  const known = new Set((await store.listSummaries()).map((s) => s.id));
  let imported = 0;
  let duplicates = 0;
  const importedAt = (options.now ?? new Date()).getTime();
  let notAfter: number | undefined;
  let clamped = 0;
  // a bundle of many sessions from elsewhere would say the same thing per session: the first few, then a count
  let folderNotes = 0;
  const notes: string[] = [];
  const warn = (message: string) => {
    if (++folderNotes <= MAX_FOLDER_NOTES) notes.push(message);
  };
  const staged = store.stageTraces();
  let read: BundleReadSummary;
  try {
    read = await streamBundle(path, options, async (trace, header) => {
      // already here under the id it has (an unredacted id): no need to redact it again to know
      if (known.has(trace.id)) {
        duplicates++;
        return;
      }
      if (notAfter === undefined) {
        const newest = Date.parse(header.newestSessionAt);
        notAfter = Number.isNaN(newest) ? importedAt : Math.min(newest, importedAt);
      }
      const local = fromPortable(trace, {
        workspace,
        ...signedContributor(signature, header.exportedBy),
        redactor,
        warn,
        notAfter,
      });
      if (known.has(local.id)) {
        duplicates++;
        return;
      }
      known.add(local.id);
      await staged.save(local);
      imported++;
      if (local.startedAt !== trace.startedAt || local.endedAt !== trace.endedAt) clamped++;
    });
    await staged.publish();
  } catch (error) {
    const { sessions } = staged.staged;
    await staged.discard();
    if (error instanceof BundleError) error.discardedSessions = sessions;
    throw error;
  }
  const warnings = [...invalidPatterns, ...read.warnings, ...[signatureWarning(signature) ?? []].flat(), ...notes];
  if (folderNotes > MAX_FOLDER_NOTES)
    warnings.push(
      `${folderNotes - MAX_FOLDER_NOTES} more session(s) had a folder outside the workspace, set to its root`,
    );
  if (clamped > 0)
    warnings.push(
      `${clamped} session(s) dated after the newest session its bundle's header states${notAfter === importedAt ? ' (or after now)' : ''}: their times were set to ${new Date(notAfter!).toISOString()}`,
    );
  return {
    bundle: read.header,
    signature,
    imported,
    duplicates,
    invalid: read.invalid,
    redactions: redactor.count,
    warnings,
  };
}

export interface ExportBundleOptions {
  store: TraceStore;
  /** The workspace folder whose sessions are exported (and whose path the bundle hides). */
  workspace: string;
  /** The bundle file to write. */
  out: string;
  exportedBy: string;
  /** Default: the newest exported session's end, so the same store exports the same bytes. */
  newestSessionAt?: string;
  /** ISO date: only sessions that ended at or after it. */
  since?: string;
  /** Every stored session, not only the workspace's. */
  allWorkspaces?: boolean;
}

export interface ExportBundleResult {
  traces: number;
  bytes: number;
  path: string;
  /** Secrets removed on export (stored sessions are redacted already: usually 0). */
  redactions: number;
}

const endOf = (trace: Trace) => trace.endedAt ?? trace.startedAt;

/** Writes the workspace's sessions (cwd in it) as a team bundle, atomically. */
export async function exportBundle(options: ExportBundleOptions): Promise<ExportBundleResult> {
  const workspace = resolve(options.workspace);
  const inWorkspace = createWorkspaceMatcher([workspace]);
  const since = options.since === undefined ? undefined : Date.parse(options.since);
  if (since !== undefined && Number.isNaN(since)) throw new Error(`since: not a date: ${options.since}`);
  const chosen = (await options.store.listTraces()).filter((trace) => {
    if (!options.allWorkspaces && !inWorkspace(trace.cwd)) return false;
    if (since === undefined) return true;
    const end = endOf(trace);
    return end !== undefined && Date.parse(end) >= since;
  });
  const exportedBy = cleanName(options.exportedBy) || 'unknown';
  const redactor = createRedactor({ homePaths: true });
  const portable = portableFor(workspace);
  const traces = chosen.map((trace) =>
    portable(trace, { contributor: exportedBy, matched: inWorkspace(trace.cwd), redactor }),
  );
  const newest = chosen
    .map(endOf)
    .filter((t): t is string => t !== undefined && !Number.isNaN(Date.parse(t)))
    .sort((a, b) => Date.parse(a) - Date.parse(b))
    .at(-1);
  const out = resolve(options.out);
  const bytes = await writeBundle(
    out,
    {
      exportedBy,
      newestSessionAt: options.newestSessionAt ?? newest ?? new Date(0).toISOString(),
      workspaceName: cleanName(basename(workspace), 200),
    },
    traces,
  );
  return { traces: traces.length, bytes, path: out, redactions: redactor.count };
}
