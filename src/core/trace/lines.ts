import { StringDecoder } from 'node:string_decoder';
import { openForRead } from '../util/io';
import { JsonStringClipper, mayNeedClip, type JsonClipLimits } from './jsonClip';

export interface LineReadOptions {
  /** Byte offset to start from (incremental re-import of append-only logs). */
  start?: number;
  /** Byte offset to stop at (default: the end of the file). */
  end?: number;
  /**
   * Lines longer than this are skipped with a warning instead of being held in memory (with `clipStrings`: lines
   * still longer once their long strings are cut).
   */
  maxLineBytes?: number;
  /** For JSON lines: long string values are cut in the middle on the raw bytes, before decoding (see jsonClip). */
  clipStrings?: JsonClipLimits;
  /**
   * Cheap prefilter, called with the start of each line (at most `SKIP_HEAD_CHARS` characters): `true` skips the
   * line before it is parsed (and, for lines longer than a read chunk, before it is assembled). Skipped lines are
   * counted in `skippedLines`, not handed to `onLine`.
   */
  skip?: (head: string) => boolean;
}

export interface LineVisit {
  text: string;
  /** 1-based line number relative to `start`. */
  lineNo: number;
}

export interface LineReadResult {
  /** Offset just after the last complete (newline-terminated) line: where the next incremental read starts. */
  endOffset: number;
  lines: number;
  skippedLongLines: number;
  /** Lines the `skip` prefilter dropped. */
  skippedLines: number;
  /** Bytes after the last newline (a line still being written); not consumed, not counted in endOffset. */
  trailingBytes: number;
  /** Bytes read from disk (from `start`). */
  bytesRead: number;
  /**
   * The first `EDGE_BYTES` bytes of the file (fewer when it is shorter) and the `EDGE_BYTES` before `endOffset`, when
   * the read saw them (`start` 0; the end within the last read): what an incremental import fingerprints, without
   * opening the file again.
   */
  edges?: { head?: Buffer; tail?: Buffer };
}

/** Size of the `edges` kept (the fingerprint size of incremental imports). */
export const EDGE_BYTES = 4096;

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
export const SKIP_HEAD_CHARS = 256;
const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Streams a file line by line without ever building a string bigger than one read chunk or one line, and never a
 * line over `maxLineBytes` (those are counted and skipped: one 700 MB line must not take the process down). With
 * `clipStrings`, a JSON line is measured after its long strings are cut, so a 700 MB tool output is read, cut.
 * An unterminated last line is handed to `onLine` too (finished files often lack the final newline) but is
 * not included in `endOffset`, so an append resumes before it.
 */
export async function readLines(
  path: string,
  onLine: (line: LineVisit) => void,
  options: LineReadOptions = {},
): Promise<LineReadResult> {
  const start = options.start ?? 0;
  const end = options.end ?? Number.MAX_SAFE_INTEGER;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const skip = options.skip;
  const clip = options.clipStrings;
  // A line split across reads is decoded piece by piece as it comes (the decoder keeps a character cut between two
  // reads), so no buffer has to grow with it; or it is dropped early when too long or filtered out.
  const decoder = new StringDecoder('utf8');
  let parts: string[] = [];
  let clipper: JsonStringClipper | undefined;
  let lineBytes = 0;
  let dropping: 'long' | 'filtered' | undefined;
  let offset = start;
  let endOffset = start;
  let lines = 0;
  let skippedLongLines = 0;
  let skippedLines = 0;

  const deliver = (text: string) => {
    lines++;
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    // A byte order mark would make the first record malformed JSON (a Codex session_meta, a Gemini header…).
    if (lines === 1 && start === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.length === 0) return;
    if (skip && skip(text.length > SKIP_HEAD_CHARS ? text.slice(0, SKIP_HEAD_CHARS) : text)) {
      skippedLines++;
      return;
    }
    onLine({ text, lineNo: lines });
  };
  const deliverClipped = (chunk: Buffer, from: number, to: number) => {
    if (skip && skip(chunk.toString('utf8', from, Math.min(to, from + SKIP_HEAD_CHARS)))) {
      lines++;
      skippedLines++;
      return;
    }
    const lineClipper = new JsonStringClipper(clip as JsonClipLimits, true);
    lineClipper.write(chunk, from, to);
    if (lineClipper.size > maxLineBytes) {
      lines++;
      skippedLongLines++;
      return;
    }
    deliver(lineClipper.end().toString('utf8'));
  };
  const finishPending = () => {
    if (dropping) {
      lines++;
      if (dropping === 'long') skippedLongLines++;
      else skippedLines++;
    } else if (clipper) {
      deliver(clipper.end().toString('utf8'));
    } else if (lineBytes > 0) {
      parts.push(decoder.end());
      deliver(parts.length === 1 ? parts[0] : parts.join(''));
    } else {
      lines++;
    }
    parts = [];
    clipper = undefined;
    lineBytes = 0;
    dropping = undefined;
  };
  const dropLong = () => {
    dropping = 'long';
    parts = [];
    clipper = undefined;
    lineBytes = 0;
    decoder.end();
  };
  /** Adds a piece of an unfinished line; decides early whether it is too long or filtered out. */
  const addPiece = (piece: Buffer) => {
    if (dropping || piece.length === 0) return;
    if (
      skip &&
      lineBytes === 0 &&
      piece.length >= SKIP_HEAD_CHARS * 4 &&
      skip(piece.toString('utf8', 0, SKIP_HEAD_CHARS))
    ) {
      dropping = 'filtered';
      return;
    }
    lineBytes += piece.length;
    if (clip) {
      clipper ??= new JsonStringClipper(clip);
      clipper.write(piece, 0, piece.length);
      if (clipper.size > maxLineBytes) dropLong();
      return;
    }
    if (lineBytes > maxLineBytes) {
      dropLong();
      return;
    }
    parts.push(decoder.write(piece));
  };

  const handle = await openForRead(path);
  const buffer = takeBuffer(CHUNK_BYTES);
  let head: Buffer | undefined;
  let lastChunkStart = start;
  let lastChunkBytes = 0;
  let tail: Buffer | undefined;
  try {
    for (;;) {
      const bytesRead = await handle.read(buffer, offset, Math.min(buffer.length, end - offset));
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      const chunkStart = offset;
      offset += bytesRead;
      if (chunkStart === 0) head = Buffer.from(chunk.subarray(0, EDGE_BYTES));
      lastChunkStart = chunkStart;
      lastChunkBytes = bytesRead;
      let from = 0;
      if (lineBytes > 0 || dropping) {
        const nl = chunk.indexOf(NEWLINE);
        if (nl === -1) {
          addPiece(chunk);
          continue;
        }
        addPiece(chunk.subarray(0, nl));
        finishPending();
        from = nl + 1;
        endOffset = chunkStart + from;
      }
      // Decoded line by line: one line with a non-Latin-1 character must not turn the whole chunk into a
      // two-byte string (slower to parse, twice the memory).
      for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        if (clip && mayNeedClip(nl - from, clip)) {
          deliverClipped(chunk, from, nl);
        } else if (nl - from > maxLineBytes) {
          skippedLongLines++;
          lines++;
        } else {
          deliver(chunk.toString('utf8', from, nl));
        }
        from = nl + 1;
        endOffset = chunkStart + from;
      }
      if (from < bytesRead) addPiece(chunk.subarray(from));
    }
    if (offset > endOffset) finishPending();
    const tailFrom = endOffset - Math.min(EDGE_BYTES, endOffset);
    if (tailFrom >= lastChunkStart && endOffset <= lastChunkStart + lastChunkBytes)
      tail = Buffer.from(buffer.subarray(tailFrom - lastChunkStart, endOffset - lastChunkStart));
  } finally {
    await handle.close();
    giveBuffer(buffer);
  }
  const trailingBytes = offset - endOffset;
  return {
    endOffset,
    lines,
    skippedLongLines,
    skippedLines,
    trailingBytes,
    bytesRead: offset - start,
    edges: { head, tail },
  };
}

// Read buffers are reused from call to call: allocating a fresh megabyte per file costs page faults.
const pool: Buffer[] = [];

function takeBuffer(size: number): Buffer {
  return pool.pop() ?? Buffer.allocUnsafe(size);
}

function giveBuffer(buffer: Buffer): void {
  if (pool.length < 4) pool.push(buffer);
}
