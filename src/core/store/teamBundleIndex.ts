import { join } from 'node:path';
import { atomicWrite, readJsonFile } from '../util/io';
import type { TraceStore } from './traceStore';

// The team bundles already read, per workspace folder, next to the import index: a capture every few minutes stats a
// bundle (or lists its branch) and reads it again only when its content changed — a bundle that was refused, or whose
// import failed, included: it is not decompressed again at every capture.

export interface SeenBundle {
  size: number;
  /** A bundle file's modification time: while it and the size hold, the file is not even hashed. */
  mtimeMs?: number;
  /** A bundle file's SHA-256: a file rewritten with the same bytes (a checkout) is the same bundle. */
  sha256?: string;
  /** A bundle on a branch: its blob's object id. */
  sha?: string;
  /** Its `.sig` as seen (a branch blob's id, a file's SHA-256); a signature added or changed has the bundle read again. */
  signature?: string;
  /** Why the bundle was refused as a whole; absent: it was imported. */
  refused?: string;
  /** Why its import failed (not the bundle's fault, as far as is known); read again when the user asks. */
  failed?: string;
  /** What read it (see BUNDLE_READER): a refusal or failure by an earlier Combee is not held against the bundle. */
  reader?: string;
}

export interface TeamBundleIndex {
  version: 1;
  /** Workspace folder → bundle (its path, or `git:<branch>:<path>`) → what was seen. */
  workspaces: Record<string, Record<string, SeenBundle>>;
}

const FILE = 'team-bundles.json';

function isSeen(value: unknown): value is SeenBundle {
  const e = value as Record<string, unknown> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.size === 'number' &&
    (e.mtimeMs === undefined || typeof e.mtimeMs === 'number') &&
    (e.sha256 === undefined || typeof e.sha256 === 'string') &&
    (e.sha === undefined || typeof e.sha === 'string') &&
    (e.signature === undefined || typeof e.signature === 'string') &&
    (e.refused === undefined || typeof e.refused === 'string') &&
    (e.failed === undefined || typeof e.failed === 'string') &&
    (e.reader === undefined || typeof e.reader === 'string')
  );
}

/** The index; a damaged or unknown one reads as empty, a damaged entry as absent (its bundle is read again). */
export async function loadTeamBundleIndex(store: TraceStore): Promise<TeamBundleIndex> {
  const json = (await readJsonFile(join(store.dir, FILE)).catch(() => undefined)) as
    Partial<TeamBundleIndex> | undefined;
  const index: TeamBundleIndex = { version: 1, workspaces: {} };
  if (json?.version !== 1 || typeof json.workspaces !== 'object' || json.workspaces === null) return index;
  for (const [workspace, bundles] of Object.entries(json.workspaces)) {
    if (typeof bundles !== 'object' || bundles === null) continue;
    const kept: Record<string, SeenBundle> = {};
    for (const [key, seen] of Object.entries(bundles)) if (isSeen(seen)) kept[key] = seen;
    index.workspaces[workspace] = kept;
  }
  return index;
}

export async function saveTeamBundleIndex(store: TraceStore, index: TeamBundleIndex): Promise<void> {
  await atomicWrite(join(store.dir, FILE), JSON.stringify(index));
}

/** Whether `now` is the bundle `before` described: same size, and same blob, same content hash or same file time. */
export function sameBundle(before: SeenBundle | undefined, now: SeenBundle): boolean {
  if (before === undefined || before.size !== now.size || before.signature !== now.signature) return false;
  if (now.sha !== undefined) return before.sha === now.sha;
  if (now.sha256 !== undefined) return before.sha256 === now.sha256;
  return before.mtimeMs === now.mtimeMs;
}
