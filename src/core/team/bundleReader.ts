import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Trace } from '../trace/model';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  BundleError,
  DEFAULT_MAX_BUNDLE_BYTES,
  DEFAULT_MAX_SESSION_BYTES,
  DEFAULT_MAX_SESSIONS,
  type BundleHeader,
  type BundleTrailer,
} from './bundle';
import { cleanName } from './portable';

// Reads a bundle as a stream: each session is handed on as soon as its line is read, so what is held at once is one
// line, whatever the bundle's size. The sessions are not verified yet when they are handed on (the trailer comes
// last): whoever takes them stages them and publishes them only once this resolves.

export interface ReadBundleOptions {
  /** Most bytes the bundle may decompress to: a larger one is refused as soon as it passes them (a zip bomb). */
  maxBytes?: number;
  /** Longest session line kept; a longer one is skipped with a warning. */
  maxSessionBytes?: number;
  /** Most sessions in the bundle. */
  maxSessions?: number;
}

export interface BundleReadSummary {
  header: BundleHeader;
  /** Valid sessions handed on. */
  sessions: number;
  /** Lines that were not a valid session: skipped, each counted (the first few also a warning). */
  invalid: number;
  warnings: string[];
  /** What the bundle decompressed to. */
  decompressedBytes: number;
}

/** A header is a few hundred bytes: a longer first line is no bundle. */
const MAX_HEADER_BYTES = 64 * 1024;
/** A trailer is about a hundred bytes: a longer line is a session line. */
const MAX_TRAILER_BYTES = 1024;
/** Warnings kept for the lines that are no session; the others are counted in one. */
const MAX_LINE_WARNINGS = 20;

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
    // `exportedAt`: the same time, as bundles written before the field was renamed call it
    newestSessionAt: text(json.newestSessionAt ?? json.exportedAt, 40),
    workspaceName: text(json.workspaceName, 200),
    traces: json.traces,
  };
}

function parseTrailer(line: Buffer): BundleTrailer | undefined {
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
const whole = (line: Line) => line.bytes === line.kept;

/** A line that reads as a trailer: the last one, unless another line follows (then it was a session line). */
interface TrailerCandidate {
  line: Line;
  no: number;
  trailer: BundleTrailer;
  /** The checksum of the session lines before it. */
  hash: Hash;
}

/**
 * Reads and checks a bundle, handing each valid session to `onTrace` as it is read (awaited: the stream waits).
 * Refused (BundleError) when it is no bundle, of an unknown or newer version, truncated, tampered with (checksum),
 * larger than `maxBytes` decompressed or holding more than `maxSessions`: then the sessions handed on must be
 * dropped. Lines that are no valid session are skipped and counted. An error thrown by `onTrace` ends the read and is
 * thrown as it is.
 */
export async function streamBundle(
  path: string,
  options: ReadBundleOptions,
  onTrace: (trace: Trace, header: BundleHeader) => Promise<void> | void,
): Promise<BundleReadSummary> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  const maxSessionBytes = options.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!(await isGzip(path).catch(() => false)))
    throw new BundleError(path, 'it is not a Combee bundle (not gzip data)');

  let header: BundleHeader | undefined;
  let sessions = 0;
  let invalid = 0;
  const warnings: string[] = [];
  let lineNo = 0;
  // every line after the header; `beforeLine` is its state before the current line, the checksum a trailer holds
  const hash = createHash('sha256');
  let beforeLine: Hash | undefined;
  let candidate: TrailerCandidate | undefined;
  let current = newLine();
  let total = 0;
  // thrown inside the pipeline, which rejects with its own abort error instead
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown): never => {
    failure = { error };
    throw error;
  };
  const refuse = (why: string): never => fail(new BundleError(path, why));

  const skip = (no: number, why: string) => {
    invalid++;
    if (invalid <= MAX_LINE_WARNINGS) warnings.push(`line ${no}: ${why}: skipped`);
  };

  const takeTrace = async (line: Line, no: number) => {
    if (!whole(line)) return skip(no, `a session of more than ${maxSessionBytes} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(line.parts).toString('utf8'));
    } catch {
      return skip(no, 'not JSON');
    }
    const parsed = Trace.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return skip(no, `not a valid session (${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'top'})`);
    }
    sessions++;
    try {
      await onTrace(parsed.data, header!);
    } catch (error) {
      fail(error);
    }
  };

  const startLine = () => {
    current.started = true;
    if (!header) return;
    beforeLine = hash.copy();
    if (lineNo > 1) hash.update('\n');
  };

  const addBytes = (piece: Buffer) => {
    if (piece.length === 0) return;
    if (!current.started) startLine();
    current.bytes += piece.length;
    if (!header) {
      if (current.bytes > MAX_HEADER_BYTES) refuse('it is not a Combee bundle (no header line)');
    } else hash.update(piece);
    // past the cap the line is only counted and hashed: it is skipped
    if (current.kept + piece.length <= (header ? maxSessionBytes : MAX_HEADER_BYTES)) {
      current.parts.push(piece);
      current.kept += piece.length;
    } else if (current.parts.length > 0) current.parts = [];
  };

  const endLine = async () => {
    // an empty line is a line too (and part of the checksum)
    if (!current.started) startLine();
    lineNo++;
    const line = current;
    current = newLine();
    if (!header) {
      try {
        header = parseHeader(path, Buffer.concat(line.parts));
      } catch (error) {
        fail(error);
      }
      if (header!.traces > maxSessions)
        refuse(`it holds ${header!.traces} sessions, more than the ${maxSessions} a bundle may hold`);
      return;
    }
    // a line follows the one that read as a trailer: that one was a session line after all
    if (candidate) {
      const earlier = candidate;
      candidate = undefined;
      await takeTrace(earlier.line, earlier.no);
    }
    const lines = lineNo - 1;
    if (lines > header.traces + 1)
      refuse(`its counts disagree (header ${header.traces}, more session lines than that)`);
    const trailer =
      line.bytes <= MAX_TRAILER_BYTES && whole(line) ? parseTrailer(Buffer.concat(line.parts)) : undefined;
    if (trailer) candidate = { line, no: lineNo, trailer, hash: beforeLine! };
    else await takeTrace(line, lineNo);
  };

  try {
    await pipeline(createReadStream(path), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        total += chunk.length;
        if (total > maxBytes)
          refuse(
            `it decompresses to more than ${mib(maxBytes)}, the most a bundle may (a decompression bomb, or more sessions than one bundle holds: its exporter can export fewer with --since <date>)`,
          );
        let start = 0;
        for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
          addBytes(chunk.subarray(start, nl));
          await endLine();
          start = nl + 1;
        }
        addBytes(chunk.subarray(start));
      }
    });
  } catch (error) {
    if (failure) {
      if (failure.error instanceof BundleError) failure.error.decompressedBytes = total;
      throw failure.error;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw error;
    throw withBytes(new BundleError(path, `it is truncated or corrupted (gzip: ${(error as Error).message})`), total);
  }

  const refused = (why: string) => withBytes(new BundleError(path, why), total);
  if (!header) throw refused('it is not a Combee bundle (no header line)');
  if (current.bytes > 0) throw refused('it is truncated (its last line is cut short)');
  if (!candidate) throw refused('it is truncated (no trailer)');
  const lines = lineNo - 2;
  if (candidate.trailer.sha256 !== candidate.hash.digest('hex'))
    throw refused('it is tampered or corrupted: checksum mismatch (it changed after it was written)');
  if (candidate.trailer.traces !== lines || header.traces !== lines)
    throw refused(
      `its counts disagree (header ${header.traces}, trailer ${candidate.trailer.traces}, ${lines} session line(s))`,
    );
  if (invalid > MAX_LINE_WARNINGS)
    warnings.push(`${invalid - MAX_LINE_WARNINGS} more line(s) were no valid session: skipped`);
  return { header, sessions, invalid, warnings, decompressedBytes: total };
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB (${bytes} bytes)`;

function withBytes(error: BundleError, bytes: number): BundleError {
  error.decompressedBytes = bytes;
  return error;
}

export interface BundleContents {
  header: BundleHeader;
  /** The valid traces as they are in the bundle (not rewritten for this machine: see portable.ts). */
  traces: Trace[];
  invalid: number;
  warnings: string[];
}

/** The whole bundle in memory, once it checked out: for small bundles and tests (importing streams, importBundle.ts). */
export async function readBundle(path: string, options: ReadBundleOptions = {}): Promise<BundleContents> {
  const traces: Trace[] = [];
  const read = await streamBundle(path, options, (trace) => {
    traces.push(trace);
  });
  return { header: read.header, traces, invalid: read.invalid, warnings: read.warnings };
}
