import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BindParams, Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import type { TraceDraft } from '../model';
import type { ReadContext, SessionFile } from './types';

// SQLite session stores (Cursor state.vscdb, OpenCode opencode.db) read with sql.js: SQLite compiled to WASM, so no
// native addon tied to the extension host's Node ABI. sql.js works on an in-memory image of the file, which bounds
// the size it can take; the stores are written in WAL mode, so committed frames of the `-wal` file are folded in.

export const SQLITE_HEADER = 'SQLite format 3\u0000';
/** The image is held in memory (once: sql.js keeps a view of the buffer read). */
export const MAX_SQLITE_BYTES = 512 * 1024 * 1024;
export const SQL_WASM = 'sql-wasm.wasm';

export function isSqliteHead(head: string): boolean {
  return head.startsWith(SQLITE_HEADER);
}

/** The wasm next to the running bundle (dist/), else the installed package (sources, out/ tests). */
export function sqlWasmPath(): string | undefined {
  const candidates = [join(__dirname, SQL_WASM)];
  try {
    candidates.push(require.resolve(`sql.js/dist/${SQL_WASM}`));
  } catch {
    // a bundle without node_modules
  }
  return candidates.find((path) => existsSync(path));
}

let loading: Promise<SqlJsStatic> | undefined;

function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const wasm = sqlWasmPath();
    if (!wasm) throw new Error(`${SQL_WASM} not found next to ${__dirname} nor in node_modules/sql.js`);
    const wasmBinary = await readFile(wasm);
    const { default: initSqlJs } = await import('sql.js');
    return initSqlJs({ wasmBinary });
  })();
  return loading;
}

export interface OpenOptions {
  warn(message: string): void;
  /** The store (with its -wal) is more than `maxBytes`: not read. */
  tooLarge(path: string): void;
  maxBytes: number;
}

/** A read-only handle on a SQLite image; every query may throw on a damaged file. */
export class SqliteImage {
  private readonly statements: Statement[] = [];

  constructor(private readonly db: Database) {}

  tables(): Set<string> {
    const names = new Set<string>();
    this.each("SELECT name FROM sqlite_master WHERE type = 'table'", [], (row) => {
      if (typeof row.name === 'string') names.add(row.name);
    });
    return names;
  }

  columns(table: string): Set<string> {
    const names = new Set<string>();
    this.each(`PRAGMA table_info("${table.replace(/"/g, '""')}")`, [], (row) => {
      if (typeof row.name === 'string') names.add(row.name);
    });
    return names;
  }

  /** Row by row, without building the whole result. */
  each(sql: string, params: BindParams, onRow: (row: Record<string, SqlValue>) => void): void {
    const statement = this.db.prepare(sql);
    try {
      statement.bind(params);
      while (statement.step()) onRow(statement.getAsObject());
    } finally {
      statement.free();
    }
  }

  /** As `each`, but a damaged page ends the scan with its error returned: the rows before it were given. */
  scan(sql: string, params: BindParams, onRow: (row: Record<string, SqlValue>) => void): Error | undefined {
    try {
      this.each(sql, params, onRow);
      return undefined;
    } catch (error) {
      return error as Error;
    }
  }

  /**
   * A statement kept for repeated lookups (freed on close): the rows for one set of parameters, up to the first
   * that fails to read (then `error`).
   */
  lookup(sql: string): (params: BindParams) => { rows: Array<Record<string, SqlValue>>; error?: Error } {
    const statement = this.db.prepare(sql);
    this.statements.push(statement);
    return (params) => {
      const rows: Array<Record<string, SqlValue>> = [];
      try {
        statement.bind(params);
        while (statement.step()) rows.push(statement.getAsObject());
        return { rows };
      } catch (error) {
        return { rows, error: error as Error };
      } finally {
        statement.reset();
      }
    };
  }

  close(): void {
    for (const statement of this.statements) statement.free();
    this.db.close();
  }
}

/** Opens a copy of the database in memory, or returns `undefined`: too large (`tooLarge`), not SQLite or unreadable (a warning). */
export async function openSqlite(path: string, bytes: number, options: OpenOptions): Promise<SqliteImage | undefined> {
  const walPath = `${path}-wal`;
  const walBytes = await stat(walPath).then(
    (s) => s.size,
    () => 0,
  );
  if (bytes + walBytes > options.maxBytes) {
    options.tooLarge(path);
    return undefined;
  }
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    options.warn(`${path}: could not be read (${(error as Error).message})`);
    return undefined;
  }
  if (data.length < 100 || data.toString('latin1', 0, SQLITE_HEADER.length) !== SQLITE_HEADER) {
    options.warn(`${path}: not a SQLite database; skipped`);
    return undefined;
  }
  if (walBytes > 0) {
    const wal = await readFile(walPath).catch(() => undefined);
    const merged = wal ? applyWal(data, wal) : 'could not be read';
    if (typeof merged === 'string') options.warn(`${walPath}: ignored (${merged}); the latest changes may be missing`);
    else data = merged.image;
  }
  // Rollback-journal mode: the in-memory copy has no -wal or -shm file beside it.
  data[18] = 1;
  data[19] = 1;
  const SQL = await loadSqlJs();
  let db: Database | undefined;
  try {
    db = new SQL.Database(data);
    db.exec('PRAGMA query_only = 1');
    db.exec('SELECT count(*) FROM sqlite_master');
  } catch (error) {
    db?.close();
    options.warn(`${path}: unreadable SQLite database (${(error as Error).message}); skipped`);
    return undefined;
  }
  return new SqliteImage(db);
}

/** A TEXT or BLOB cell as text. */
export function cellText(value: SqlValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return undefined;
}

/** A cell holding JSON, parsed; `undefined` when absent or malformed. */
export function cellJson(value: SqlValue | undefined): unknown {
  const text = cellText(value);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

/**
 * Folds the committed frames of a WAL file into the database image (https://sqlite.org/fileformat2.html#walformat):
 * frames count while their salts match the header and their running checksum holds; the pages of the last
 * commit frame in that run win. Returns the reason when the WAL cannot be used.
 */
export function applyWal(image: Buffer, wal: Uint8Array): { image: Buffer; commits: number } | string {
  if (wal.length < WAL_HEADER_BYTES) return 'shorter than its header';
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return 'not a WAL file';
  const littleEndian = magic === 0x377f0682;
  const pageSize = view.getUint32(8);
  const rawImagePageSize = image.readUInt16BE(16);
  const imagePageSize = rawImagePageSize === 1 ? 65536 : rawImagePageSize;
  if (pageSize !== imagePageSize) return `page size ${pageSize} differs from the database's ${imagePageSize}`;
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);
  let sums = checksum(view, 0, 24, 0, 0, littleEndian);
  if (sums[0] !== view.getUint32(24) || sums[1] !== view.getUint32(28)) return 'bad header checksum';

  const frameBytes = WAL_FRAME_HEADER_BYTES + pageSize;
  const pending = new Map<number, number>();
  const committed = new Map<number, number>();
  let pages = 0;
  let commits = 0;
  for (let at = WAL_HEADER_BYTES; at + frameBytes <= wal.length; at += frameBytes) {
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    sums = checksum(view, at, at + 8, sums[0], sums[1], littleEndian);
    sums = checksum(view, at + WAL_FRAME_HEADER_BYTES, at + frameBytes, sums[0], sums[1], littleEndian);
    if (sums[0] !== view.getUint32(at + 16) || sums[1] !== view.getUint32(at + 20)) break;
    const pageNo = view.getUint32(at);
    if (pageNo === 0) break;
    pending.set(pageNo, at + WAL_FRAME_HEADER_BYTES);
    const commitPages = view.getUint32(at + 4);
    if (commitPages > 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      pending.clear();
      pages = commitPages;
      commits++;
    }
  }
  if (committed.size === 0) return { image, commits: 0 };
  const size = pages * pageSize;
  // Written in place when the database did not grow: the image is ours, and may be large.
  const out =
    size <= image.length ? image.subarray(0, size) : Buffer.concat([image, Buffer.alloc(size - image.length)]);
  for (const [page, offset] of committed) {
    if (page <= pages) out.set(wal.subarray(offset, offset + pageSize), (page - 1) * pageSize);
  }
  // The in-header page count is trusted only when it matches the change counter.
  out.writeUInt32BE(pages, 28);
  out.copy(out, 92, 24, 28);
  return { image: out, commits };
}

function checksum(
  view: DataView,
  from: number,
  to: number,
  s0: number,
  s1: number,
  littleEndian: boolean,
): [number, number] {
  for (let i = from; i < to; i += 8) {
    s0 = (s0 + view.getUint32(i, littleEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, littleEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

/** A reader's whole pass over one store: opened under the context's limits, read, and always closed. */
export async function readSqliteStore(
  file: SessionFile,
  ctx: ReadContext,
  read: (image: SqliteImage) => TraceDraft[] | Promise<TraceDraft[]>,
): Promise<TraceDraft[]> {
  const image = await openSqlite(file.path, file.bytes, {
    warn: (message) => ctx.warn(message),
    tooLarge: (path) => ctx.tooLarge(path),
    maxBytes: ctx.maxSqliteBytes,
  });
  if (!image) return [];
  try {
    return await read(image);
  } finally {
    image.close();
  }
}
