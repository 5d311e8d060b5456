import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Trace } from '../trace/model';
import { MAX_BUNDLE_DECOMPRESSED_BYTES, MAX_BUNDLE_SESSIONS, MAX_BUNDLE_SESSION_BYTES } from './teamLimits';

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
  /**
   * When the newest session in the bundle ended (not when it was exported: the same sessions give the same bytes, so
   * no clock is read). Bundles written before it was named so carry it as `exportedAt`; readers accept both.
   */
  newestSessionAt: string;
  workspaceName: string;
  traces: number;
}

export interface BundleTrailer {
  end: true;
  traces: number;
  sha256: string;
}

/** A bundle refused as a whole: nothing of it is imported. */
export class BundleError extends Error {
  /** Bytes it had decompressed to when it was refused (it is refused as soon as it is known to be bad). */
  decompressedBytes?: number;
  /** Sessions staged before the refusal, all removed again. */
  discardedSessions?: number;

  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`bundle ${path} is refused: ${why}`);
    this.name = 'BundleError';
  }
}

/** A bundle too large for a teammate's Combee to import: not written. */
export class BundleTooLargeError extends Error {}

/** Fixed, so the same traces give the same bytes (Node writes gzip's mtime as 0). */
const GZIP_LEVEL = 9;
/** gzip header byte 9 names the OS that wrote it: "unknown" everywhere, so every platform writes the same bytes. */
const OS_BYTE = 9;

export const DEFAULT_MAX_BUNDLE_BYTES = MAX_BUNDLE_DECOMPRESSED_BYTES;
export const DEFAULT_MAX_SESSION_BYTES = MAX_BUNDLE_SESSION_BYTES;
export const DEFAULT_MAX_SESSIONS = MAX_BUNDLE_SESSIONS;

function* bundleLines(header: BundleHeader, traces: readonly Trace[], hash: Hash): Generator<string> {
  yield `${JSON.stringify(header)}\n`;
  // the header and the trailer are a few hundred bytes: what a reader counts is within this room
  let bytes = 64 * 1024;
  for (let i = 0; i < traces.length; i++) {
    const line = JSON.stringify(traces[i]);
    hash.update(i === 0 ? line : `\n${line}`);
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > MAX_BUNDLE_DECOMPRESSED_BYTES)
      throw new BundleTooLargeError(
        `the bundle would decompress to more than ${MAX_BUNDLE_DECOMPRESSED_BYTES} bytes, more than Combee imports: export fewer sessions (--since <date>)`,
      );
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
  if (traces.length > MAX_BUNDLE_SESSIONS)
    throw new BundleTooLargeError(
      `${traces.length} sessions, more than the ${MAX_BUNDLE_SESSIONS} Combee imports from one bundle: export fewer (--since <date>)`,
    );
  const sorted = [...traces].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const full: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedBy: header.exportedBy,
    newestSessionAt: header.newestSessionAt,
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
