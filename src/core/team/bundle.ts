import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Trace } from '../trace/model';
import { cleanName } from './portable';

/**
 * A team bundle: gzip'd JSON Lines. Line 1 the header, then one trace per line (sorted by id), then the trailer with
 * the count and the sha256 of the trace lines joined with "\n". Written and read as streams; a file cut short has no
 * trailer (or a broken gzip stream), one changed fails the checksum.
 */
export const BUNDLE_FORMAT = 'combee-bundle';
export const BUNDLE_VERSION = 1;

export interface BundleHeader {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  exportedBy: string;
  exportedAt: string;
  workspaceName: string;
  traces: number;
}

interface BundleTrailer {
  end: true;
  traces: number;
  sha256: string;
}

/** A bundle refused as a whole: nothing of it is imported. */
export class BundleError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`bundle ${path} is refused: ${why}`);
    this.name = 'BundleError';
  }
}

/** Fixed, so the same traces give the same bytes (Node writes gzip's mtime as 0). */
const GZIP_LEVEL = 9;
/** gzip header byte 9 names the OS that wrote it: "unknown" everywhere, so every platform writes the same bytes. */
const OS_BYTE = 9;

export const DEFAULT_MAX_BUNDLE_BYTES = 2 * 1024 ** 3;
/** Below Node's longest string (2^29 - 24 characters): one trace line is parsed as one string. */
export const DEFAULT_MAX_TRACE_CHARS = 256 * 1024 ** 2;
/** A header is a few hundred bytes: a longer first line is no bundle. */
const MAX_HEADER_BYTES = 64 * 1024;

function* bundleLines(header: BundleHeader, traces: readonly Trace[], hash: Hash): Generator<string> {
  yield `${JSON.stringify(header)}\n`;
  for (let i = 0; i < traces.length; i++) {
    const line = JSON.stringify(traces[i]);
    hash.update(i === 0 ? line : `\n${line}`);
    yield `${line}\n`;
  }
  const trailer: BundleTrailer = { end: true, traces: traces.length, sha256: hash.digest('hex') };
  yield `${JSON.stringify(trailer)}\n`;
}

function unknownOs(): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (offset <= OS_BYTE && OS_BYTE < offset + chunk.length) chunk[OS_BYTE - offset] = 0xff;
      offset += chunk.length;
      done(null, chunk);
    },
  });
}

let tempCounter = 0;

/**
 * Writes a bundle of `traces` (already rewritten for export, sorted by id here) to `path` through a temporary sibling
 * renamed over it: a reader never sees half a bundle. Returns its size in bytes.
 */
export async function writeBundle(
  path: string,
  header: Omit<BundleHeader, 'format' | 'version' | 'traces'>,
  traces: readonly Trace[],
): Promise<number> {
  const sorted = [...traces].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const full: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedBy: header.exportedBy,
    exportedAt: header.exportedAt,
    workspaceName: header.workspaceName,
    traces: sorted.length,
  };
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${++tempCounter}.tmp`);
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.from(bundleLines(full, sorted, createHash('sha256'))),
      createGzip({ level: GZIP_LEVEL }),
      unknownOs(),
      count,
      createWriteStream(temp),
    );
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return bytes;
}

export interface ReadBundleOptions {
  /** Most bytes the bundle may decompress to (default 2 GiB): a larger one is refused (a zip bomb). */
  maxBytes?: number;
  /** Longest trace line kept (default 256 Mi characters); a longer one is skipped with a warning. */
  maxTraceChars?: number;
}

export interface BundleContents {
  header: BundleHeader;
  /** The valid traces as they are in the bundle (not rewritten for this machine: see portable.ts). */
  traces: Trace[];
  /** Trace lines that were not a valid trace: skipped (each one also a warning). */
  invalid: number;
  warnings: string[];
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

function parseHeader(path: string, line: Buffer): BundleHeader {
  let json: Record<string, unknown> | null;
  try {
    json = JSON.parse(line.toString('utf8')) as Record<string, unknown> | null;
  } catch {
    throw new BundleError(path, 'it is not a Combee bundle (its first line is not a bundle header)');
  }
  if (typeof json !== 'object' || json === null || json.format !== BUNDLE_FORMAT)
    throw new BundleError(path, `it is not a Combee bundle (format ${JSON.stringify(json?.format ?? null)})`);
  const { version } = json;
  if (typeof version === 'number' && Number.isInteger(version) && version > BUNDLE_VERSION)
    throw new BundleError(
      path,
      `it was made by a newer Combee (bundle version ${version}; this one reads version ${BUNDLE_VERSION}): update Combee`,
    );
  if (version !== BUNDLE_VERSION)
    throw new BundleError(path, `unknown bundle version ${JSON.stringify(version ?? null)}`);
  if (typeof json.traces !== 'number' || !Number.isInteger(json.traces) || json.traces < 0)
    throw new BundleError(path, 'its header has no trace count');
  const text = (value: unknown, max: number) => (typeof value === 'string' ? cleanName(value, max) : '');
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    // names from another machine: no control characters, capped
    exportedBy: text(json.exportedBy, 100) || 'unknown',
    exportedAt: text(json.exportedAt, 40),
    workspaceName: text(json.workspaceName, 200),
    traces: json.traces,
  };
}

function parseTrailer(line: Buffer | undefined): BundleTrailer | undefined {
  if (!line) return undefined;
  try {
    const json = JSON.parse(line.toString('utf8')) as Partial<BundleTrailer> | null;
    return json?.end === true && typeof json.traces === 'number' && typeof json.sha256 === 'string'
      ? (json as BundleTrailer)
      : undefined;
  } catch {
    return undefined;
  }
}

/** One line of the decompressed stream as it arrives: its bytes (kept up to a cap) and its length. */
interface Line {
  parts: Buffer[];
  kept: number;
  bytes: number;
  started: boolean;
}
const newLine = (): Line => ({ parts: [], kept: 0, bytes: 0, started: false });

/**
 * Reads and checks a bundle. Refused (BundleError) when it is no bundle, of an unknown or newer version, truncated,
 * tampered with (checksum) or larger than `maxBytes` decompressed; trace lines that fail the schema are skipped and
 * counted. Traces are returned only once the whole file checked out.
 */
export async function readBundle(path: string, options: ReadBundleOptions = {}): Promise<BundleContents> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  const maxTraceChars = options.maxTraceChars ?? DEFAULT_MAX_TRACE_CHARS;
  // a character is at least one UTF-8 byte and a UTF-16 unit at most three: beyond this many bytes, surely too long
  const keepBytes = Math.min(maxTraceChars * 3, 2 ** 31 - 1);
  if (!(await isGzip(path).catch(() => false)))
    throw new BundleError(path, 'it is not a Combee bundle (not gzip data)');

  let header: BundleHeader | undefined;
  const traces: Trace[] = [];
  const warnings: string[] = [];
  let invalid = 0;
  let lineNo = 0;
  // `hash` takes every line after the header; `beforeLast` is its state before the newest one, which is the trailer
  // when the stream ends there
  const hash = createHash('sha256');
  let beforeLast: Hash | undefined;
  let pending: Line | undefined;
  let pendingNo = 0;
  let current = newLine();
  let total = 0;
  // thrown inside the pipeline, which rejects with its own abort error instead
  let refusal: BundleError | undefined;
  const refuse = (why: string) => {
    refusal = new BundleError(path, why);
    throw refusal;
  };

  const takeTrace = (line: Line, no: number) => {
    if (line.bytes > line.kept) {
      invalid++;
      warnings.push(`line ${no}: a session longer than ${maxTraceChars} characters: skipped`);
      return;
    }
    const text = Buffer.concat(line.parts).toString('utf8');
    if (text.length > maxTraceChars) {
      invalid++;
      warnings.push(`line ${no}: a session longer than ${maxTraceChars} characters: skipped`);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      invalid++;
      warnings.push(`line ${no}: not JSON: skipped`);
      return;
    }
    const parsed = Trace.safeParse(json);
    if (parsed.success) traces.push(parsed.data);
    else {
      invalid++;
      const issue = parsed.error.issues[0];
      warnings.push(
        `line ${no}: not a valid session (${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'top'}): skipped`,
      );
    }
  };

  const startLine = () => {
    current.started = true;
    if (!header) return;
    // a line after the header: the hash so far covers the trace lines before it (all of them, if it is the trailer)
    beforeLast = hash.copy();
    if (lineNo > 1) hash.update('\n');
  };

  const addBytes = (piece: Buffer) => {
    if (piece.length === 0) return;
    if (!current.started) startLine();
    current.bytes += piece.length;
    if (!header) {
      if (current.bytes > MAX_HEADER_BYTES) refuse('it is not a Combee bundle (no header line)');
    } else hash.update(piece);
    if (current.kept + piece.length <= (header ? keepBytes : MAX_HEADER_BYTES)) {
      current.parts.push(piece);
      current.kept += piece.length;
    }
  };

  const endLine = () => {
    // an empty line is a line too (and part of the checksum)
    if (!current.started) startLine();
    lineNo++;
    if (!header) {
      try {
        header = parseHeader(path, Buffer.concat(current.parts));
      } catch (error) {
        refusal = error as BundleError;
        throw error;
      }
    } else {
      if (pending) takeTrace(pending, pendingNo);
      pending = current;
      pendingNo = lineNo;
    }
    current = newLine();
  };

  try {
    await pipeline(createReadStream(path), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        total += chunk.length;
        if (total > maxBytes) refuse(`it decompresses to more than ${maxBytes} bytes (a zip bomb?)`);
        let start = 0;
        for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
          addBytes(chunk.subarray(start, nl));
          endLine();
          start = nl + 1;
        }
        addBytes(chunk.subarray(start));
      }
    });
  } catch (error) {
    if (refusal) throw refusal;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw error;
    throw new BundleError(path, `it is truncated or corrupted (gzip: ${(error as Error).message})`);
  }

  if (!header) throw new BundleError(path, 'it is not a Combee bundle (no header line)');
  if (current.bytes > 0) throw new BundleError(path, 'it is truncated (its last line is cut short)');
  const trailer = parseTrailer(pending && pending.bytes === pending.kept ? Buffer.concat(pending.parts) : undefined);
  if (!trailer || !beforeLast) throw new BundleError(path, 'it is truncated (no trailer)');
  const lines = lineNo - 2;
  if (trailer.sha256 !== beforeLast.digest('hex'))
    throw new BundleError(path, 'it is tampered or corrupted: checksum mismatch (it changed after it was written)');
  if (trailer.traces !== lines || header.traces !== lines)
    throw new BundleError(
      path,
      `its counts disagree (header ${header.traces}, trailer ${trailer.traces}, ${lines} session line(s))`,
    );
  return { header, traces, invalid, warnings };
}
