import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';

// The one module through which Combee reads and writes its files (the store, proposals, caches, accepted changes).
// In a worker thread nothing else waits on the event loop, and a blocking call costs a tenth of a promise-based
// one (no thread-pool round trip): thousands of small files make that the difference. On the main thread
// (extension host, tests) file access stays asynchronous; the CLI, whose main thread only hands out work, turns it on.
let blocking = !isMainThread;

export function setBlockingIo(on: boolean): void {
  blocking = on;
}

export function isBlockingIo(): boolean {
  return blocking;
}

export interface ReadHandle {
  /** Bytes read into `buffer` from `position` (0 at the end of the file). */
  read(buffer: Buffer, position: number, length?: number): Promise<number>;
  close(): Promise<void>;
}

export async function openForRead(path: string): Promise<ReadHandle> {
  if (blocking) {
    const fd = openSync(path, 'r');
    return {
      read: async (buffer, position, length = buffer.length) => readSync(fd, buffer, 0, length, position),
      close: async () => closeSync(fd),
    };
  }
  const handle = await open(path, 'r');
  return {
    read: async (buffer, position, length = buffer.length) =>
      (await handle.read(buffer, 0, length, position)).bytesRead,
    close: () => handle.close(),
  };
}

/** The bytes at [position, position + length), fewer at the end of the file. */
export async function readRange(path: string, position: number, length: number): Promise<Buffer> {
  const handle = await openForRead(path);
  try {
    const buffer = Buffer.alloc(length);
    let got = 0;
    // one read(2) may return less than asked before the end of the file
    while (got < length) {
      const n = await handle.read(buffer.subarray(got), position + got);
      if (n === 0) break;
      got += n;
    }
    return buffer.subarray(0, got);
  } finally {
    await handle.close();
  }
}

/** A file's text, `undefined` when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return blocking ? readFileSync(path, 'utf8') : await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

let tempCounter = 0;

/**
 * Writes `parts` (written as they come) to a temporary sibling, then renames it over `path`: a reader never sees a
 * half-written file, and a crash leaves the old one. Its folder is made when missing.
 */
export async function writeAtomic(path: string, parts: Iterable<string | Buffer>): Promise<void> {
  // unique per process, thread and write (cheaper than random bytes at thousands of files a second)
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${threadId}-${++tempCounter}.tmp`);
  await writeParts(temp, parts);
  if (blocking) renameSync(temp, path);
  else await rename(temp, path);
}

/** `writeAtomic` of one text or byte array. */
export async function atomicWrite(path: string, content: string | Uint8Array): Promise<void> {
  await writeAtomic(path, [
    typeof content === 'string' ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength),
  ]);
}

/** A JSON file's value, `undefined` when the file does not exist (invalid JSON throws). */
export async function readJsonFile(path: string): Promise<unknown> {
  const text = await readTextIfExists(path);
  return text === undefined ? undefined : JSON.parse(text);
}

/** Creates or truncates `path` and writes `parts`; a write that fails removes the file. */
async function writeParts(path: string, parts: Iterable<string | Buffer>): Promise<void> {
  const handle = await openForWrite(path, 'w');
  try {
    for (const part of parts) await handle.write(part);
  } catch (error) {
    await handle.close();
    await removeFile(path);
    throw error;
  }
  await handle.close();
}

// Texts are encoded into one reused buffer (a UTF-16 unit is at most 3 UTF-8 bytes): one pass over the text, where
// measuring it first and then writing it took two; larger texts get a buffer of their own.
const SCRATCH_MAX_CHARS = 2 * 1024 * 1024;
let scratch: Buffer | undefined;

/** `text` as UTF-8: a view into the shared scratch buffer, valid until the next call. */
function encodeUtf8(text: string): Buffer {
  if (text.length > SCRATCH_MAX_CHARS) return Buffer.from(text, 'utf8');
  const need = 3 * text.length;
  if (!scratch || scratch.length < need) scratch = Buffer.allocUnsafe(Math.max(need, 64 * 1024));
  return scratch.subarray(0, scratch.write(text, 0, 'utf8'));
}

export interface WriteHandle {
  /** Writes all of `data`; returns the bytes written. */
  write(data: string | Buffer): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens `path` for writing with `flag` ('w' creates or truncates, 'wx' creates a file that must not exist yet); its
 * folder is made when missing (also when it was removed since the last write).
 */
export async function openForWrite(path: string, flag: 'w' | 'wx'): Promise<WriteHandle> {
  const missingDir = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
  if (blocking) {
    let fd: number;
    try {
      fd = openSync(path, flag);
    } catch (error) {
      if (!missingDir(error)) throw error;
      mkdirSync(dirname(path), { recursive: true });
      fd = openSync(path, flag);
    }
    return {
      write: async (data) => {
        const bytes = typeof data === 'string' ? encodeUtf8(data) : data;
        // a write(2) may stop short (a signal, a nearly full disk): the rest is written, or the error surfaces
        for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
        return bytes.length;
      },
      close: async () => closeSync(fd),
    };
  }
  const handle = await open(path, flag).catch(async (error: unknown) => {
    if (!missingDir(error)) throw error;
    await mkdir(dirname(path), { recursive: true });
    return open(path, flag);
  });
  return {
    write: async (data) => {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let done = 0; done < bytes.length;)
        done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
      return bytes.length;
    },
    close: () => handle.close(),
  };
}

export async function removeFile(path: string): Promise<void> {
  if (blocking) rmSync(path, { force: true });
  else await rm(path, { force: true });
}
