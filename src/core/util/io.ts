import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
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

/** Size of the read buffers lent by `takeReadBuffer`. */
export const READ_CHUNK_BYTES = 1 << 20;
// Read buffers are reused from call to call: allocating a fresh megabyte per file costs page faults, and large
// buffers freed at varying sizes leave glibc's heap fragmented (its mmap threshold follows the largest one freed).
const readBuffers: Buffer[] = [];

export function takeReadBuffer(): Buffer {
  return readBuffers.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES);
}

export function giveReadBuffer(buffer: Buffer): void {
  if (readBuffers.length < 4) readBuffers.push(buffer);
}

/**
 * The UTF-8 text of the bytes at [position, position + length), read a chunk at a time into a reused buffer (no
 * buffer the size of the text); `undefined` when the file ends before.
 */
export async function readTextRange(path: string, position: number, length: number): Promise<string | undefined> {
  const handle = await openForRead(path);
  const buffer = takeReadBuffer();
  try {
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    for (let got = 0; got < length;) {
      const n = await handle.read(buffer, position + got, Math.min(buffer.length, length - got));
      if (n === 0) return undefined;
      parts.push(decoder.write(buffer.subarray(0, n)));
      got += n;
    }
    parts.push(decoder.end());
    return parts.join('');
  } finally {
    await handle.close();
    giveReadBuffer(buffer);
  }
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

/** Files up to this size are read whole; larger ones a chunk at a time through a reused buffer (see takeReadBuffer). */
const WHOLE_READ_BYTES = 64 * 1024;

/** A file's text, `undefined` when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    if (!blocking) return await readFile(path, 'utf8');
    const bytes = statSync(path).size;
    return bytes <= WHOLE_READ_BYTES ? readFileSync(path, 'utf8') : await readTextRange(path, 0, bytes);
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

// Blocking writes encode texts into one reused buffer (a UTF-16 unit is at most 3 UTF-8 bytes): one pass over the
// text, where measuring it first and then writing it took two, and no buffer the size of a large text.
const SLICE_CHARS = 1024 * 1024;
const scratch = { buffer: undefined as Buffer | undefined };

/** `text[from, to)` as UTF-8: a view into the shared scratch buffer, valid until the next call. */
function encodeSlice(text: string, from: number, to: number): Buffer {
  const need = 3 * (to - from);
  if (!scratch.buffer || scratch.buffer.length < need) scratch.buffer = Buffer.allocUnsafe(Math.max(need, 64 * 1024));
  const piece = from === 0 && to === text.length ? text : text.slice(from, to);
  return scratch.buffer.subarray(0, scratch.buffer.write(piece, 0, 'utf8'));
}

/** Where a slice of `text` from `from` ends: at most SLICE_CHARS on, never between the halves of a surrogate pair. */
function sliceEnd(text: string, from: number): number {
  const end = Math.min(text.length, from + SLICE_CHARS);
  if (end === text.length) return end;
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

function writeAll(fd: number, bytes: Buffer): void {
  // a write(2) may stop short (a signal, a nearly full disk): the rest is written, or the error surfaces
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
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
        if (typeof data !== 'string') {
          writeAll(fd, data);
          return data.length;
        }
        let written = 0;
        for (let from = 0; from < data.length;) {
          const to = sliceEnd(data, from);
          const bytes = encodeSlice(data, from, to);
          writeAll(fd, bytes);
          written += bytes.length;
          from = to;
        }
        return written;
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
