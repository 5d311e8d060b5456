import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { threadId } from 'node:worker_threads';
import { z } from 'zod';
import { openForWrite, readTextIfExists, readTextRange, type WriteHandle } from '../util/io';
import { fastParser } from '../util/fastParse';
import { TraceSummary } from '../trace/summary';
import { isForgotten, loadForgotten } from './forgotten';

// Trace packs: the traces of one import batch, one JSON line each, in one file (`<name>.jsonl`) with a sidecar index
// (`<name>.idx.json`: id → byte range) written once the pack is complete. Thousands of small sessions then cost a
// few hundred file creations instead of thousands (file creation dominates small writes on ext4). A trace written
// again (a grown log) goes to a newer pack: the newest pack holding an id wins, and `compactPacks` rewrites packs
// that became mostly dead. A pack without its index (a crash mid-batch) is ignored; its files are imported again.
// Since version 2 each index entry also holds the trace's summary (summary.ts): lists read indexes, not bodies.

export interface PackEntry {
  pack: string;
  offset: number;
  length: number;
  /** Absent in packs written before version 2. */
  summary?: TraceSummary;
}

const Offset = z.number().int().nonnegative();
const PackIndex = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  bytes: Offset,
  traces: z.array(
    z.union([z.tuple([z.string(), Offset, Offset]), z.tuple([z.string(), Offset, Offset, TraceSummary])]),
  ),
});
type PackIndex = z.infer<typeof PackIndex>;
// an index holds a summary per trace and the lists read every index: checked without zod's copy
const checkIndex = fastParser(PackIndex);

export const INDEX_SUFFIX = '.idx.json';
/** Pack indexes read (and parsed) together: a batch of 128 summaries takes about a millisecond to check. */
const INDEXES_AT_ONCE = 8;
export const PACK_SUFFIX = '.jsonl';
let packCounter = 0;

/** Sorts by creation time (a fixed-width base-36 clock first), then by process, thread and (fixed-width) count. */
export function packName(time: number, count: number): string {
  return `${time.toString(36).padStart(9, '0')}-${process.pid.toString(36)}-${threadId}-${count.toString(36).padStart(6, '0')}`;
}

function newPackName(): string {
  return packName(Date.now(), ++packCounter);
}

/** Appends traces to a new pack; `close` publishes them (writes the index). Nothing is created until the first trace. */
export class PackWriter {
  private handle: WriteHandle | undefined;
  private name = '';
  private bytes = 0;
  private entries: PackIndex['traces'] = [];

  constructor(private readonly dir: string) {}

  /** Bytes written to the open pack (0 when none is open). */
  get openBytes(): number {
    return this.bytes;
  }

  /** Writes one trace's JSON (given in pieces, no newline inside) as a line; its summary goes into the index. */
  async add(id: string, parts: Iterable<string | Buffer>, summary?: TraceSummary): Promise<void> {
    if (!this.handle) {
      this.name = newPackName();
      this.handle = await openForWrite(join(this.dir, this.name + PACK_SUFFIX), 'wx');
    }
    const start = this.bytes;
    try {
      for (const part of parts) this.bytes += await this.handle.write(part);
      this.bytes += await this.handle.write('\n');
    } catch (error) {
      // the pack's tail is unknown now: publish what is complete, later traces go to a fresh pack
      await this.close();
      throw error;
    }
    const length = this.bytes - start - 1;
    this.entries.push(summary ? [id, start, length, summary] : [id, start, length]);
  }

  /** Publishes the pack: its traces become readable once the index exists. */
  async close(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    this.handle = undefined;
    await handle.close();
    if (this.entries.length > 0) {
      const index: PackIndex = { version: 2, bytes: this.bytes, traces: this.entries };
      const out = await openForWrite(join(this.dir, this.name + INDEX_SUFFIX), 'wx');
      try {
        await out.write(JSON.stringify(index));
      } finally {
        await out.close();
      }
    }
    this.entries = [];
    this.bytes = 0;
  }
}

// A published index never changes: each is read once per process (and dropped when its pack is gone).
const indexCache = new Map<string, PackIndex>();

async function readIndex(path: string): Promise<PackIndex | null> {
  const cached = indexCache.get(path);
  if (cached !== undefined) return cached;
  let index: PackIndex | null = null;
  try {
    const parsed = checkIndex(JSON.parse((await readTextIfExists(path)) ?? 'null'));
    if (parsed.success) index = parsed.data;
  } catch {
    // half-written (a crash while publishing): the pack is ignored
  }
  // only a complete index is remembered; a missing or damaged one may still be (re)written
  if (index) indexCache.set(path, index);
  return index;
}

export interface PackMap {
  /** Where each trace's newest copy is. */
  traces: Map<string, PackEntry>;
  /** Size of each published pack, oldest first. */
  packs: Map<string, number>;
}

/** The newest location of every trace in the packs under `dir`. */
export async function loadPackMap(dir: string): Promise<PackMap> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { traces: new Map(), packs: new Map() };
  }
  const packs = names
    .filter((n) => n.endsWith(INDEX_SUFFIX))
    .map((n) => n.slice(0, -INDEX_SUFFIX.length))
    .sort();
  const present = new Set(names);
  for (const path of indexCache.keys())
    if (path.startsWith(dir + sep) && !present.has(path.slice(dir.length + 1))) indexCache.delete(path);
  const map: PackMap = { traces: new Map(), packs: new Map() };
  // A few at a time: each index is parsed when its read completes, and thousands of summaries parsed in one turn of
  // the event loop would hold up everything else on the thread (the extension host's).
  const indexes: Array<PackIndex | null> = [];
  for (let i = 0; i < packs.length; i += INDEXES_AT_ONCE)
    indexes.push(
      ...(await Promise.all(
        packs.slice(i, i + INDEXES_AT_ONCE).map((pack) => readIndex(join(dir, pack + INDEX_SUFFIX))),
      )),
    );
  packs.forEach((pack, i) => {
    const index = indexes[i];
    if (!index) return;
    map.packs.set(pack, index.bytes);
    for (const [id, offset, length, summary] of index.traces) map.traces.set(id, { pack, offset, length, summary });
  });
  // a forgotten session is no live trace: no read sees it, and compaction drops its text
  const forgotten = await loadForgotten(dir);
  if (forgotten.size > 0)
    for (const [id, entry] of map.traces) if (isForgotten(forgotten, id, entry.summary)) map.traces.delete(id);
  return map;
}

/** One trace's JSON text, `undefined` when its pack is gone or short. */
export async function readPacked(dir: string, entry: PackEntry): Promise<string | undefined> {
  return readTextRange(join(dir, entry.pack + PACK_SUFFIX), entry.offset, entry.length).catch(() => undefined);
}

/** Every live trace's JSON text, pack by pack (each pack read once). */
export async function* readAllPacked(dir: string, map: PackMap): AsyncGenerator<{ id: string; json: string }> {
  const byPack = groupByPack(map);
  for (const [pack, entries] of byPack) {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, pack + PACK_SUFFIX));
    } catch {
      continue;
    }
    for (const [id, entry] of entries) {
      if (entry.offset + entry.length <= bytes.length)
        yield { id, json: bytes.toString('utf8', entry.offset, entry.offset + entry.length) };
    }
  }
}

function groupByPack(
  map: PackMap,
  keep: (pack: string) => boolean = () => true,
): Map<string, Array<[string, PackEntry]>> {
  const byPack = new Map<string, Array<[string, PackEntry]>>();
  for (const [id, entry] of map.traces) {
    if (!keep(entry.pack)) continue;
    let list = byPack.get(entry.pack);
    if (!list) byPack.set(entry.pack, (list = []));
    list.push([id, entry]);
  }
  return byPack;
}

export interface CompactionResult {
  rewritten: number;
  freedBytes: number;
}

/** Packs under this share of live bytes are rewritten; so are small packs once there are too many files. */
const MIN_LIVE_SHARE = 0.5;
const MAX_PACKS = 256;
const SMALL_PACK_BYTES = 1024 * 1024;
/** Below this much dead text a rewrite is not worth its I/O. */
const MIN_FREED_BYTES = 256 * 1024;
/** Past this share of dead text in the whole store, every pack holding dead copies is rewritten (a killed import). */
const MAX_DEAD_SHARE = 0.05;
/** A pack without an index this old was abandoned by a crash (a live writer publishes within seconds). */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * Rewrites the live traces of mostly-dead packs (and of small ones when there are many) into one new pack, then
 * removes the old ones. A crash midway leaves duplicates of identical text, which the newest-wins rule resolves.
 */
export async function compactPacks(dir: string, now = Date.now()): Promise<CompactionResult> {
  const map = await loadPackMap(dir);
  const live = new Map<string, number>();
  for (const entry of map.traces.values()) live.set(entry.pack, (live.get(entry.pack) ?? 0) + entry.length + 1);
  const many = map.packs.size > MAX_PACKS;
  const total = [...map.packs.values()].reduce((a, b) => a + b, 0);
  const deadInStore = total - [...live.values()].reduce((a, b) => a + b, 0);
  // Copies left by an import that was killed and re-run are spread thinly over many packs: no single pack is mostly
  // dead, yet together they are worth a rewrite.
  const sweep = deadInStore >= MIN_FREED_BYTES && deadInStore > total * MAX_DEAD_SHARE;
  const chosen = [...map.packs]
    .filter(([pack, bytes]) => {
      const liveBytes = live.get(pack) ?? 0;
      return liveBytes < bytes * MIN_LIVE_SHARE || (many && bytes < SMALL_PACK_BYTES) || (sweep && liveBytes < bytes);
    })
    .map(([pack]) => pack);
  const dead = chosen.reduce((sum, pack) => sum + (map.packs.get(pack) ?? 0) - (live.get(pack) ?? 0), 0);
  const result: CompactionResult = { rewritten: 0, freedBytes: 0 };
  await removeOrphans(dir, now);
  if (chosen.length === 0 || (!many && dead < MIN_FREED_BYTES)) return result;
  const moving = new Set(chosen);
  const byPack = groupByPack(map, (pack) => moving.has(pack));
  const writer = new PackWriter(dir);
  try {
    for (const [pack, entries] of byPack) {
      const bytes = await readFile(join(dir, pack + PACK_SUFFIX)).catch(() => Buffer.alloc(0));
      for (const [id, entry] of entries) {
        if (entry.offset + entry.length > bytes.length) continue;
        await writer.add(id, [bytes.subarray(entry.offset, entry.offset + entry.length)], entry.summary);
        result.rewritten++;
      }
    }
  } finally {
    await writer.close();
  }
  for (const pack of moving) {
    result.freedBytes += (map.packs.get(pack) ?? 0) - (live.get(pack) ?? 0);
    // the index first: a pack left without one is ignored, then removed as an orphan
    await rm(join(dir, pack + INDEX_SUFFIX), { force: true });
    await rm(join(dir, pack + PACK_SUFFIX), { force: true });
  }
  return result;
}

async function removeOrphans(dir: string, now: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const indexed = new Set(names.filter((n) => n.endsWith(INDEX_SUFFIX)).map((n) => n.slice(0, -INDEX_SUFFIX.length)));
  for (const name of names) {
    if (!name.endsWith(PACK_SUFFIX) || indexed.has(name.slice(0, -PACK_SUFFIX.length))) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > ORPHAN_AGE_MS) await rm(path, { force: true });
  }
}
