import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { applyWal } from '../../src/core/trace/sources/sqlite';
import type { BinarySample } from './binarySamples';
import { walOf } from './sqliteWal';
import { frameStarts, rawFrame, skippableFrame } from './zstdFrames';

/**
 * Seeded damage done to a SQLite store or a .jsonl.zst rollout: the same seed gives the same bytes, run after run.
 * Byte damage hits the file where its structure is (header, b-tree pages, frames); row damage rewrites the rows
 * through sql.js, as a buggy or newer agent would have written them.
 */

type Rng = () => number;
const pick = (rng: Rng, n: number) => Math.floor(rng() * n);

export interface Damaged {
  content: Buffer;
  /** Files beside the store, by suffix (`-wal`): added, or in place of a companion. */
  beside?: Record<string, Buffer>;
}

export interface BinaryMutation {
  kind: string;
  container: 'sqlite' | 'zst';
  variants: number;
  apply(sample: BinarySample, rng: Rng): Damaged | Promise<Damaged>;
  /** It only adds (a row, a table, a key, a frame): every session of the intact sample is still read. */
  keepsSessions?: true;
}

const DEEP = 10_000;
const HUGE_BYTES = 1024 * 1024;

function flip(bytes: Buffer, rng: Rng, from: number, to: number, count = 1 + pick(rng, 3)): Buffer {
  const out = Buffer.from(bytes);
  for (let n = count; n > 0; n--) out[from + pick(rng, Math.max(1, to - from))] ^= 1 << pick(rng, 8);
  return out;
}

// --- SQLite pages -------------------------------------------------------------------------------------------------

function pageSize(image: Buffer): number {
  const raw = image.readUInt16BE(16);
  return raw === 1 ? 65536 : raw;
}

const pageCount = (image: Buffer) => Math.ceil(image.length / pageSize(image));

/** The b-tree pages (interior and leaf, table and index) with the bytes of their header and cell pointer array. */
function btreePages(image: Buffer): Array<{ page: number; from: number; to: number }> {
  const size = pageSize(image);
  const pages = [];
  for (let page = 1; page <= pageCount(image); page++) {
    const base = (page - 1) * size + (page === 1 ? 100 : 0);
    const type = image[base];
    if (![2, 5, 10, 13].includes(type)) continue;
    const headerBytes = type === 2 || type === 5 ? 12 : 8;
    const cells = image.readUInt16BE(base + 3);
    pages.push({ page, from: base, to: base + headerBytes + 2 * cells });
  }
  return pages;
}

/** Where JSON objects start in the file (`{"`), past the header: inside rows, or their overflow pages. */
function jsonOffsets(image: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = image.indexOf('{"', 100); at !== -1; at = image.indexOf('{"', at + 2)) offsets.push(at);
  return offsets;
}

/** The sample's own -wal when it has one, else a valid one rewriting a few of its pages as they are. */
function walBeside(sample: BinarySample): Buffer {
  const own = Object.entries(sample.companions).find(([rel]) => rel === `${sample.target}-wal`);
  if (own) return own[1];
  const pages = pageCount(sample.content);
  return walOf(sample.content, [...new Set([1, Math.ceil(pages / 2), pages])]);
}

// --- SQLite rows --------------------------------------------------------------------------------------------------

let sql: Awaited<ReturnType<typeof initSqlJs>> | undefined;

interface JsonCell {
  table: string;
  column: string;
  rowid: number;
  text: string;
  blob: boolean;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every cell holding a JSON object or array, in a stable order. */
function jsonCells(db: Database): JsonCell[] {
  const cells: JsonCell[] = [];
  const [tables] = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  for (const [table] of tables?.values ?? []) {
    const name = String(table);
    const [rows] = db.exec(`SELECT rowid AS __rowid, * FROM ${quote(name)} ORDER BY rowid`);
    if (!rows) continue;
    for (const values of rows.values) {
      values.forEach((value, i) => {
        const blob = value instanceof Uint8Array;
        const text = blob ? Buffer.from(value).toString('utf8') : typeof value === 'string' ? value : undefined;
        if (i > 0 && text && /^\s*[{[]/.test(text))
          cells.push({ table: name, column: rows.columns[i], rowid: Number(values[0]), text, blob });
      });
    }
  }
  return cells;
}

/**
 * The sample opened in sql.js (its -wal folded in first, as the reader does), changed by `change`, exported: same
 * page size, in rollback mode, with an empty -wal in place of the one folded in.
 */
async function rewrite(sample: BinarySample, change: (db: Database) => void): Promise<Damaged> {
  sql ??= await initSqlJs();
  const wal = sample.companions[`${sample.target}-wal`];
  // A copy: sql.js writes into the array it is given, and so does applyWal.
  let image: Buffer = Buffer.from(sample.content);
  if (wal) {
    const merged = applyWal(image, wal);
    if (typeof merged === 'string') throw new Error(`the sample's -wal: ${merged}`);
    image = merged.image;
  }
  image[18] = 1;
  image[19] = 1;
  const db = new sql.Database(image);
  try {
    change(db);
    return { content: Buffer.from(db.export()), beside: wal ? { '-wal': Buffer.alloc(0) } : undefined };
  } finally {
    db.close();
  }
}

function setCell(db: Database, cell: JsonCell, text: string): void {
  db.run(`UPDATE ${quote(cell.table)} SET ${quote(cell.column)} = ? WHERE rowid = ?`, [
    cell.blob ? Buffer.from(text) : text,
    cell.rowid,
  ]);
}

/** One JSON cell of the sample, picked by `rng`, rewritten by `edit`. */
function editJsonCell(edit: (text: string, rng: Rng) => string) {
  return (sample: BinarySample, rng: Rng) =>
    rewrite(sample, (db) => {
      const cells = jsonCells(db);
      if (cells.length === 0) return;
      const cell = cells[pick(rng, cells.length)];
      setCell(db, cell, edit(cell.text, rng));
    });
}

/** A key added to a JSON object's text (or the array wrapped in one), the rest of the record untouched. */
function withKey(text: string, key: string, json: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && trimmed !== '{}') return `{${JSON.stringify(key)}:${json},${trimmed.slice(1)}`;
  return trimmed.startsWith('{') ? `{${JSON.stringify(key)}:${json}}` : trimmed;
}

// Not JSON null: Cursor marks a deleted row so, and a reader rightly passes over it.
const UNKNOWN_SHAPES = [
  '{"x-future":{"schema":99,"items":[1,2,3]}}',
  '[{"type":"x-future-record"}]',
  '42',
  '"a string where a record was"',
  '{}',
];

/** A copy of a JSON row under a new key (its first text column), holding a record of a type no reader knows. */
function insertUnknownRow(sample: BinarySample, rng: Rng): Promise<Damaged> {
  return rewrite(sample, (db) => {
    const cells = jsonCells(db);
    if (cells.length === 0) return;
    const cell = cells[pick(rng, cells.length)];
    const [row] = db.exec(`SELECT * FROM ${quote(cell.table)} WHERE rowid = ${cell.rowid}`);
    const values: SqlValue[] = [...row.values[0]];
    const key = values.findIndex((v, i) => typeof v === 'string' && row.columns[i] !== cell.column);
    if (key !== -1) values[key] = `${String(values[key])}-x-future`;
    const unknown = JSON.stringify({
      type: 'x-future-record',
      role: 'x-future',
      payload: { id: 7 },
      data: { any: true },
    });
    values[row.columns.indexOf(cell.column)] = cell.blob ? Buffer.from(unknown) : unknown;
    db.run(
      `INSERT INTO ${quote(cell.table)} (${row.columns.map(quote).join(', ')}) VALUES (${values.map(() => '?').join(', ')})`,
      values,
    );
  });
}

const SQLITE: BinaryMutation[] = [
  {
    kind: 'truncate at a page boundary',
    container: 'sqlite',
    variants: 3,
    apply: (s, rng) => ({
      content: s.content.subarray(0, pageSize(s.content) * (1 + pick(rng, Math.max(1, pageCount(s.content) - 1)))),
    }),
  },
  {
    kind: 'truncate mid-page',
    container: 'sqlite',
    variants: 3,
    apply: (s, rng) => ({ content: s.content.subarray(0, 1 + pick(rng, s.content.length - 1)) }),
  },
  {
    kind: 'truncate in the header',
    container: 'sqlite',
    variants: 1,
    apply: (s, rng) => ({ content: s.content.subarray(0, 1 + pick(rng, 99)) }),
  },
  {
    kind: 'flip bytes in the header',
    container: 'sqlite',
    variants: 3,
    apply: (s, rng) => ({ content: flip(s.content, rng, 0, 100) }),
  },
  {
    kind: 'flip bytes in a b-tree page',
    container: 'sqlite',
    variants: 4,
    apply: (s, rng) => {
      const pages = btreePages(s.content);
      const { from, to } = pages[pick(rng, pages.length)];
      return { content: flip(s.content, rng, from, to) };
    },
  },
  {
    kind: 'flip bytes in a row’s JSON',
    container: 'sqlite',
    variants: 4,
    apply: (s, rng) => {
      const offsets = jsonOffsets(s.content);
      if (offsets.length === 0) return { content: flip(s.content, rng, 100, s.content.length) };
      const at = offsets[pick(rng, offsets.length)];
      return { content: flip(s.content, rng, at, Math.min(s.content.length, at + 200)) };
    },
  },
  {
    kind: 'zero a page',
    container: 'sqlite',
    variants: 3,
    apply: (s, rng) => {
      const size = pageSize(s.content);
      const page = pick(rng, pageCount(s.content));
      const out = Buffer.from(s.content);
      out.fill(0, page * size, (page + 1) * size);
      return { content: out };
    },
  },
  {
    kind: 'the database replaced by an empty file',
    container: 'sqlite',
    variants: 1,
    apply: () => ({ content: Buffer.alloc(0) }),
  },
  {
    kind: 'leftover -wal of garbage',
    container: 'sqlite',
    variants: 2,
    apply: (s, rng) => {
      const garbage = Buffer.alloc(32 + pick(rng, 3 * pageSize(s.content)));
      for (let i = 0; i < garbage.length; i++) garbage[i] = pick(rng, 256);
      return { content: s.content, beside: { '-wal': garbage } };
    },
  },
  {
    kind: 'leftover -wal truncated',
    container: 'sqlite',
    variants: 3,
    apply: (s, rng) => {
      const wal = walBeside(s);
      return { content: s.content, beside: { '-wal': wal.subarray(0, pick(rng, wal.length)) } };
    },
  },
  {
    kind: 'leftover -wal rewriting pages as they are',
    container: 'sqlite',
    variants: 1,
    keepsSessions: true,
    apply: (s) => ({ content: s.content, beside: { '-wal': walBeside(s) } }),
  },
  {
    kind: 'a row’s JSON malformed',
    container: 'sqlite',
    variants: 3,
    apply: editJsonCell((text, rng) => text.slice(0, 1 + pick(rng, Math.max(1, text.length - 2)))),
  },
  {
    kind: 'a row’s JSON deeply nested',
    container: 'sqlite',
    variants: 2,
    keepsSessions: true,
    apply: editJsonCell((text) => withKey(text, 'x-deep', `${'['.repeat(DEEP)}"x"${']'.repeat(DEEP)}`)),
  },
  {
    kind: 'a row’s JSON deeply nested, unclosed',
    container: 'sqlite',
    variants: 1,
    apply: editJsonCell(() => '{"a":'.repeat(DEEP)),
  },
  {
    kind: 'a row’s JSON huge',
    container: 'sqlite',
    variants: 2,
    keepsSessions: true,
    apply: editJsonCell((text) => withKey(text, 'x-huge', JSON.stringify('x'.repeat(HUGE_BYTES)))),
  },
  {
    kind: 'a row’s JSON of an unknown shape',
    container: 'sqlite',
    variants: 3,
    apply: editJsonCell((_, rng) => UNKNOWN_SHAPES[pick(rng, UNKNOWN_SHAPES.length)]),
  },
  {
    kind: 'a row of a type the reader does not know',
    container: 'sqlite',
    variants: 2,
    keepsSessions: true,
    apply: insertUnknownRow,
  },
  {
    kind: 'a table the reader does not know',
    container: 'sqlite',
    variants: 1,
    keepsSessions: true,
    apply: (s) =>
      rewrite(s, (db) => {
        db.run('CREATE TABLE x_future (key TEXT PRIMARY KEY, value BLOB)');
        db.run('INSERT INTO x_future VALUES (?, ?)', [
          'composerData:x-future',
          JSON.stringify({ type: 'x-future-record' }),
        ]);
      }),
  },
];

// --- zstd frames --------------------------------------------------------------------------------------------------

const FUTURE_LINE = `${JSON.stringify({ timestamp: '2026-05-04T10:11:30.000Z', type: 'x-future-record', payload: { id: 7 } })}\n`;

function garbage(rng: Rng, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = pick(rng, 256);
  return out;
}

/**
 * The first frame's header rewritten to ask for a window of 1.9 GB (under the 2 GB fzstd takes), its blocks as
 * they were: what one flipped bit in a Window_Descriptor or a content size does.
 */
function hugeWindow(stream: Buffer): Buffer {
  if (stream.readUInt32LE(0) !== 0xfd2fb528) return stream;
  const descriptor = stream[4];
  const singleSegment = (descriptor >> 5) & 1;
  const fcsFlag = descriptor >> 6;
  const dictBytes = [0, 1, 2, 4][descriptor & 3];
  const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag;
  const fcsAt = 5 + (singleSegment ? 0 : 1) + dictBytes;
  const contentSize =
    fcsBytes === 0 ? undefined : stream.readUIntLE(fcsAt, Math.min(fcsBytes, 6)) + (fcsFlag === 1 ? 256 : 0);
  const header = Buffer.alloc(contentSize === undefined ? 6 : 10);
  stream.copy(header, 0, 0, 4);
  header[4] = (contentSize === undefined ? 0 : 2 << 6) | (descriptor & (1 << 2)); // no single segment, no dictionary
  header[5] = (20 << 3) | 7; // 2^30 + 7/8 of it
  if (contentSize !== undefined) header.writeUInt32LE(contentSize, 6);
  return Buffer.concat([header, stream.subarray(fcsAt + fcsBytes)]);
}

const ZST: BinaryMutation[] = [
  {
    kind: 'truncate',
    container: 'zst',
    variants: 4,
    apply: (s, rng) => ({ content: s.content.subarray(0, 1 + pick(rng, s.content.length - 1)) }),
  },
  {
    kind: 'truncate in a frame header',
    container: 'zst',
    variants: 2,
    apply: (s, rng) => {
      const starts = frameStarts(s.content);
      return { content: s.content.subarray(0, starts[pick(rng, starts.length)] + 1 + pick(rng, 8)) };
    },
  },
  {
    kind: 'truncate at a frame boundary',
    container: 'zst',
    variants: 1,
    apply: (s) => {
      const starts = frameStarts(s.content);
      return { content: s.content.subarray(0, starts.length > 1 ? starts[1] : s.content.length) };
    },
  },
  {
    kind: 'flip bytes',
    container: 'zst',
    variants: 4,
    apply: (s, rng) => ({ content: flip(s.content, rng, 0, s.content.length) }),
  },
  {
    kind: 'flip bytes in a frame header',
    container: 'zst',
    variants: 3,
    apply: (s, rng) => {
      const starts = frameStarts(s.content);
      const at = starts[pick(rng, starts.length)];
      return { content: flip(s.content, rng, at, Math.min(s.content.length, at + 12), 1) };
    },
  },
  {
    kind: 'a window too large to allocate',
    container: 'zst',
    variants: 1,
    apply: (s) => ({ content: hugeWindow(s.content) }),
  },
  {
    kind: 'a second concatenated frame',
    container: 'zst',
    variants: 1,
    keepsSessions: true,
    apply: (s) => ({ content: Buffer.concat([s.content, rawFrame(Buffer.from(FUTURE_LINE))]) }),
  },
  {
    kind: 'an empty frame after',
    container: 'zst',
    variants: 1,
    keepsSessions: true,
    apply: (s) => ({ content: Buffer.concat([s.content, rawFrame(Buffer.alloc(0))]) }),
  },
  {
    kind: 'a skippable frame',
    container: 'zst',
    variants: 3,
    keepsSessions: true,
    apply: (s, rng) => {
      const starts = [...frameStarts(s.content), s.content.length];
      const at = starts[pick(rng, starts.length)];
      return {
        content: Buffer.concat([
          s.content.subarray(0, at),
          skippableFrame(garbage(rng, pick(rng, 64)), pick(rng, 16)),
          s.content.subarray(at),
        ]),
      };
    },
  },
  {
    kind: 'a valid frame of garbage',
    container: 'zst',
    variants: 2,
    apply: (s, rng) => {
      const frame = rawFrame(garbage(rng, 1 + pick(rng, 4096)));
      return { content: rng() < 0.5 ? Buffer.concat([frame, s.content]) : Buffer.concat([s.content, frame]) };
    },
  },
  {
    kind: 'not zstd at all',
    container: 'zst',
    variants: 1,
    apply: (s, rng) => ({ content: garbage(rng, s.content.length) }),
  },
  { kind: 'an empty file', container: 'zst', variants: 1, apply: () => ({ content: Buffer.alloc(0) }) },
];

export const BINARY_MUTATIONS: BinaryMutation[] = [...SQLITE, ...ZST];

/** Every mutation variant for a container, each with its own seed from the sample and variant (stable across runs). */
export function binaryMutationsOf(
  container: 'sqlite' | 'zst',
  sampleIndex: number,
): Array<{ label: string; mutation: BinaryMutation; seed: number }> {
  return BINARY_MUTATIONS.flatMap((mutation, m) =>
    mutation.container !== container
      ? []
      : Array.from({ length: mutation.variants }, (_, v) => ({
          label: mutation.variants > 1 ? `${mutation.kind} #${v + 1}` : mutation.kind,
          mutation,
          seed: (sampleIndex + 1) * 7919 + m * 104_729 + v * 15_485_863,
        })),
  );
}
