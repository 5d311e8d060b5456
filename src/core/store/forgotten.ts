import { join } from 'node:path';
import { shortHash } from '../util/hash';
import { atomicWrite, readJsonFile } from '../util/io';
import type { TraceSummary } from '../trace/summary';

// Sessions the user told Combee to forget. Packs are append-only, so a forgotten session is left out of every read
// (and so counts as dead text that compaction removes); an import that reads the same session again stores a copy
// that is left out too. A session that grew since (the agent went on in it) is a new version and comes back.

const FILE = 'forgotten.json';

/** Forgotten versions by session id: the source key of each. */
export type Forgotten = ReadonlyMap<string, ReadonlySet<string>>;

/** One version of a session as its source gave it: its size, step count and end (what a grown log changes). */
export function sourceKey(summary: Pick<TraceSummary, 'bytes' | 'steps' | 'endedAt'>): string {
  return shortHash(`${summary.bytes}\n${summary.steps}\n${summary.endedAt ?? ''}`);
}

/** The forgotten sessions of the packs in `dir`; an unreadable file forgets nothing (nothing is hidden by mistake). */
export async function loadForgotten(dir: string): Promise<Forgotten> {
  const json = (await readJsonFile(join(dir, FILE)).catch(() => undefined)) as
    { sessions?: Array<{ id?: unknown; source?: unknown }> } | undefined;
  const forgotten = new Map<string, Set<string>>();
  for (const entry of Array.isArray(json?.sessions) ? json.sessions : []) {
    if (typeof entry?.id !== 'string' || typeof entry.source !== 'string') continue;
    const keys = forgotten.get(entry.id) ?? new Set<string>();
    forgotten.set(entry.id, keys.add(entry.source));
  }
  return forgotten;
}

/** Whether this version of a session was forgotten (a summary-less entry of an older pack: by its id alone). */
export function isForgotten(forgotten: Forgotten, id: string, summary: TraceSummary | undefined): boolean {
  const keys = forgotten.get(id);
  return keys !== undefined && (summary === undefined || keys.has(sourceKey(summary)));
}

/** Adds a session's version to the list (sorted, so the same sessions give the same file). */
export async function addForgotten(dir: string, summary: TraceSummary): Promise<void> {
  const forgotten = await loadForgotten(dir);
  const entries = [...forgotten].flatMap(([id, keys]) => [...keys].map((source) => ({ id, source })));
  const key = sourceKey(summary);
  if (!forgotten.get(summary.id)?.has(key)) entries.push({ id: summary.id, source: key });
  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.source < b.source ? -1 : 1));
  await atomicWrite(join(dir, FILE), `${JSON.stringify({ version: 1, sessions: entries }, null, 1)}\n`);
}
