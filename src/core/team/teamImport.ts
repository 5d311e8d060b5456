import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { lstat, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTeamBundleIndex, sameBundle, saveTeamBundleIndex, type SeenBundle } from '../store/teamBundleIndex';
import type { TraceStore } from '../store/traceStore';
import { tryResolveInWorkspace } from '../trust/workspacePath';
import type { AllowedSigners } from './allowedSigners';
import { BUNDLE_VERSION, BundleError } from './bundle';
import { MAX_SIGNATURE_BYTES, SIGNATURE_SUFFIX } from './bundleSignature';
import { BranchSourceError, copyBranchBundle, listBranchBundles } from './branchBundles';
import { importBundle, type ImportBundleResult } from './importBundle';
import {
  BUNDLE_SUFFIX,
  MAX_BUNDLE_DECOMPRESSED_BYTES,
  MAX_BUNDLE_FILE_BYTES,
  MAX_BUNDLE_SESSION_BYTES,
  MAX_BUNDLE_SESSIONS,
  MAX_BUNDLES_PER_SOURCE,
} from './teamLimits';
import { bundleLabel, resolveTeamSources, type TeamSource } from './teamSources';

// The team's bundles of one workspace folder, as `combee.team.bundles` names them, imported into the store: each
// bundle on its own (a refused one imports nothing, the others still do), and only when it changed since it was
// last read.

export interface TeamBundleOutcome {
  /** The bundle: its workspace-relative path, or `git:<branch>:<path>`. */
  bundle: string;
  /** `unchanged`: as when it was last read and imported. */
  status: 'imported' | 'unchanged' | 'refused' | 'failed';
  result?: ImportBundleResult;
  why?: string;
  /** A refusal or failure from an earlier read: the bundle did not change since, so it was not read (see `note`). */
  remembered?: boolean;
  /** For a remembered one: that it was skipped, why, and how to have it read again. */
  note?: string;
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
  /** Reads again the bundles whose import failed last time (run by the user); refused ones wait for a change. */
  retryFailed?: boolean;
  /** The user's allowed signers, for the default importOne (a signed bundle's signer is verified against them). */
  allowedSigners?: AllowedSigners;
}

/**
 * What reads the bundles, with its limits: a refusal or failure remembered from another reader (an earlier or later
 * Combee, other limits) is not held against the bundle: it is read again.
 */
export const BUNDLE_READER = `bundle-v${BUNDLE_VERSION}/${MAX_BUNDLE_DECOMPRESSED_BYTES}/${MAX_BUNDLE_SESSIONS}/${MAX_BUNDLE_SESSION_BYTES}`;

/** A bundle found in a source, before it is read. */
interface Found {
  label: string;
  seen: SeenBundle;
  /** A bundle file's SHA-256 (read when its size or time changed); a branch's blob id is a content hash already. */
  contentHash?: () => Promise<string>;
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
        let seen = bundle.seen;
        try {
          if (!sameBundle(known, seen) && bundle.contentHash) seen = { ...seen, sha256: await bundle.contentHash() };
        } catch (error) {
          // gone or unreadable since it was listed: nothing to remember
          done({ bundle: bundle.label, status: 'failed', why: (error as Error).message });
          continue;
        }
        if (known && sameBundle(known, seen) && !readAgain(known, options.retryFailed)) {
          after[bundle.label] = { ...known, ...seen };
          done(rememberedOutcome(bundle.label, known));
          continue;
        }
        const record = { ...seen, reader: BUNDLE_READER };
        try {
          const result = await bundle.read(
            options.importOne ??
              ((path) => importBundle({ store, path, workspace, allowedSigners: options.allowedSigners })),
          );
          after[bundle.label] = record;
          done({ bundle: bundle.label, status: 'imported', result });
        } catch (error) {
          if (error instanceof BundleError) {
            const why = refusal(error);
            after[bundle.label] = { ...record, refused: why };
            done({ bundle: bundle.label, status: 'refused', why });
          } else {
            const why = (error as Error).message;
            // a cancelled import is no failure of the bundle's
            if (!signal?.aborted) after[bundle.label] = { ...record, failed: why };
            done({ bundle: bundle.label, status: 'failed', why });
          }
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

/** Whether a bundle unchanged since `known` is read again: its refusal or failure was another reader's, or a retry. */
function readAgain(known: SeenBundle, retryFailed: boolean | undefined): boolean {
  if (known.refused === undefined && known.failed === undefined) return false;
  return known.reader !== BUNDLE_READER || (known.failed !== undefined && retryFailed === true);
}

function rememberedOutcome(label: string, known: SeenBundle): TeamBundleOutcome {
  if (known.refused !== undefined)
    return {
      bundle: label,
      status: 'refused',
      why: known.refused,
      remembered: true,
      note: `skipped: it was refused when it was read before (${known.refused}) and has not changed since; it is read again once it changes or Combee is updated (\`combee import --bundle <file>\` reads a file now)`,
    };
  if (known.failed !== undefined)
    return {
      bundle: label,
      status: 'failed',
      why: known.failed,
      remembered: true,
      note: `skipped: its import failed when it was read before (${known.failed}) and it has not changed since; run "Combee: Import Team Bundles" to read it again`,
    };
  return { bundle: label, status: 'unchanged' };
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
      seen: { size: bundle.size, sha: bundle.sha, ...(bundle.signature && { signature: bundle.signature.sha }) },
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
    const signature = await signatureSeen(path);
    found.push({
      label,
      seen: { size: info.size, mtimeMs: info.mtimeMs, ...(signature && { signature }) },
      contentHash: () => fileSha256(path),
      read: (use) => use(path),
    });
  }
  return found;
}

/** A bundle's `.sig` as seen: its SHA-256 (it is small), its size when too large to be read; none when absent. */
async function signatureSeen(bundlePath: string): Promise<string | undefined> {
  const path = bundlePath + SIGNATURE_SUFFIX;
  const info = await lstat(path).catch(() => undefined);
  if (!info) return undefined;
  if (!info.isFile() || info.size > MAX_SIGNATURE_BYTES) return `unreadable:${info.size}`;
  return fileSha256(path).catch(() => 'unreadable');
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
