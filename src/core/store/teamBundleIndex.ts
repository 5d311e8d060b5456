import { join } from 'node:path';
import { atomicWrite, readJsonFile } from '../util/io';
import type { TraceStore } from './traceStore';

// The team bundles already read, per workspace folder, next to the import index: a capture every few minutes stats a
// bundle (or lists its branch) and reads it again only when it changed.

export interface SeenBundle {
  size: number;
  /** A bundle file's modification time. */
  mtimeMs?: number;
  /** A bundle on a branch: its blob's object id. */
  sha?: string;
  /** Why the bundle was refused as a whole; absent: it was imported. */
  refused?: string;
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
    (e.sha === undefined || typeof e.sha === 'string') &&
    (e.refused === undefined || typeof e.refused === 'string')
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

/** Whether `now` is the bundle `before` described: same size, and same blob or modification time. */
export function sameBundle(before: SeenBundle | undefined, now: SeenBundle): boolean {
  return (
    before !== undefined &&
    before.size === now.size &&
    (now.sha !== undefined ? before.sha === now.sha : before.mtimeMs === now.mtimeMs)
  );
}
