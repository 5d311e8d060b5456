import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTeamBundleIndex, sameBundle, saveTeamBundleIndex, type SeenBundle } from '../store/teamBundleIndex';
import type { TraceStore } from '../store/traceStore';
import { tryResolveInWorkspace } from '../trust/workspacePath';
import type { AllowedSigners } from './allowedSigners';
import { BundleError } from './bundle';
import { BranchSourceError, copyBranchBundle, listBranchBundles } from './branchBundles';
import { importBundle, type ImportBundleResult } from './importBundle';
import { BUNDLE_SUFFIX, MAX_BUNDLE_FILE_BYTES, MAX_BUNDLES_PER_SOURCE } from './teamLimits';
import { bundleLabel, resolveTeamSources, type TeamSource } from './teamSources';

// The team's bundles of one workspace folder, as `combee.team.bundles` names them, imported into the store: each
// bundle on its own (a refused one imports nothing, the others still do), and only when it changed since it was
// last read.

export interface TeamBundleOutcome {
  /** The bundle: its workspace-relative path, or `git:<branch>:<path>`. */
  bundle: string;
  /** `unchanged`: as when it was last read (and imported, or refused: then `why` says why, `remembered` is set). */
  status: 'imported' | 'unchanged' | 'refused' | 'failed';
  result?: ImportBundleResult;
  why?: string;
  /** A refusal from an earlier read: the bundle did not change since. */
  remembered?: boolean;
}

export interface TeamImportResult {
  bundles: TeamBundleOutcome[];
  /** Entries and bundles not read, one line each naming it and why. */
  problems: string[];
  /** Sessions new to the store. */
  imported: number;
}

export interface TeamImportOptions {
  store: TraceStore;
  /** The workspace folder (absolute): where the entries resolve and the sessions are placed. */
  workspace: string;
  /** `combee.team.bundles`. */
  entries: readonly string[];
  signal?: AbortSignal;
  /** Called as each bundle is done. */
  onBundle?: (outcome: TeamBundleOutcome) => void;
  /** Imports one bundle file (the extension runs it in a worker thread); default: here. Throws BundleError. */
  importOne?: (path: string) => Promise<ImportBundleResult>;
  /** The user's allowed signers, for the default importOne (a signed bundle's signer is verified against them). */
  allowedSigners?: AllowedSigners;
}

/** A bundle found in a source, before it is read. */
interface Found {
  label: string;
  seen: SeenBundle;
  /** Where it can be read: the file itself, or a copy of its blob made on demand. */
  read: (use: (path: string) => Promise<ImportBundleResult>) => Promise<ImportBundleResult>;
}

export async function importTeamBundles(options: TeamImportOptions): Promise<TeamImportResult> {
  const { store, workspace, signal } = options;
  const { sources, problems } = resolveTeamSources(workspace, options.entries);
  const index = await loadTeamBundleIndex(store);
  const before = index.workspaces[workspace] ?? {};
  const after: Record<string, SeenBundle> = {};
  const bundles: TeamBundleOutcome[] = [];
  let complete = true;
  const done = (outcome: TeamBundleOutcome) => {
    bundles.push(outcome);
    options.onBundle?.(outcome);
  };
  try {
    for (const source of sources) {
      const found = await findBundles(source, workspace, problems);
      for (const bundle of found) {
        if (signal?.aborted) {
          complete = false;
          break;
        }
        const known = before[bundle.label];
        if (sameBundle(known, bundle.seen)) {
          after[bundle.label] = known!;
          done(
            known!.refused === undefined
              ? { bundle: bundle.label, status: 'unchanged' }
              : { bundle: bundle.label, status: 'refused', why: known!.refused, remembered: true },
          );
          continue;
        }
        try {
          const result = await bundle.read(
            options.importOne ??
              ((path) => importBundle({ store, path, workspace, allowedSigners: options.allowedSigners })),
          );
          after[bundle.label] = bundle.seen;
          done({ bundle: bundle.label, status: 'imported', result });
        } catch (error) {
          if (error instanceof BundleError) {
            const why = refusal(error);
            after[bundle.label] = { ...bundle.seen, refused: why };
            done({ bundle: bundle.label, status: 'refused', why });
          } else done({ bundle: bundle.label, status: 'failed', why: (error as Error).message });
        }
      }
    }
  } finally {
    // bundles gone from every source are forgotten; after a cancel, what was not looked at is kept
    const kept = complete ? after : { ...before, ...after };
    if (JSON.stringify(kept) !== JSON.stringify(index.workspaces[workspace] ?? {})) {
      index.workspaces[workspace] = kept;
      await saveTeamBundleIndex(store, index);
    }
  }
  return { bundles, problems, imported: bundles.reduce((n, b) => n + (b.result?.imported ?? 0), 0) };
}

/** BundleError's reason without its path (a branch bundle is read from a temporary copy). */
const refusal = (error: BundleError) => {
  const prefix = `bundle ${error.path} is refused: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
};

async function findBundles(source: TeamSource, workspace: string, problems: string[]): Promise<Found[]> {
  if (source.kind === 'folder') return folderBundles(source, workspace, problems);
  try {
    const listing = await listBranchBundles(workspace, source.branch, source.folder);
    for (const why of listing.skipped) problems.push(`${source.entry}: ${why}: not read`);
    return listing.bundles.map((bundle) => ({
      label: bundleLabel(source, bundle.path),
      seen: { size: bundle.size, sha: bundle.sha },
      read: async (use) => {
        const dir = await mkdtemp(join(tmpdir(), 'combee-team-'));
        try {
          const copy = join(dir, `bundle${BUNDLE_SUFFIX}`);
          await copyBranchBundle(workspace, bundle, copy);
          return await use(copy);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    }));
  } catch (error) {
    if (!(error instanceof BranchSourceError)) throw error;
    problems.push(`${source.entry}: ${error.message}`);
    return [];
  }
}

async function folderBundles(
  source: Extract<TeamSource, { kind: 'folder' }>,
  workspace: string,
  problems: string[],
): Promise<Found[]> {
  if (!existsSync(source.path)) return [];
  const names = (await readdir(source.path).catch(() => [] as string[]))
    .filter((name) => name.endsWith(BUNDLE_SUFFIX))
    .sort();
  for (const name of names.splice(MAX_BUNDLES_PER_SOURCE))
    problems.push(`${source.folder}/${name}: more than ${MAX_BUNDLES_PER_SOURCE} bundles in one folder: not read`);
  const found: Found[] = [];
  for (const name of names) {
    const label = `${source.folder}/${name}`;
    // a bundle that is a symbolic link out of the workspace is not read
    const path = tryResolveInWorkspace(workspace, label);
    if (!path) {
      problems.push(`${label}: it leads outside the workspace folder: not read`);
      continue;
    }
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (info.size > MAX_BUNDLE_FILE_BYTES) {
      problems.push(`${label}: ${info.size} bytes, more than ${MAX_BUNDLE_FILE_BYTES}: not read`);
      continue;
    }
    found.push({ label, seen: { size: info.size, mtimeMs: info.mtimeMs }, read: (use) => use(path) });
  }
  return found;
}
