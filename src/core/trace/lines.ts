import { giveReadBuffer, openForRead, takeReadBuffer } from '../util/io';
import type { JsonClipLimits } from './jsonClip';
import { LineAssembler, type LineVisit } from './lineAssembler';

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
   * Cheap prefilter, called with the start of each line (see LineAssemblerOptions): `true` skips the line before it
   * is parsed. Skipped lines are counted in `skippedLines`, not handed to `onLine`.
   */
  skip?: (head: string) => boolean;
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

/**
 * Streams a file line by line (see LineAssembler: never a string bigger than one read chunk or one line, never a line
 * over `maxLineBytes`, long JSON strings cut on the raw bytes). An unterminated last line is handed to `onLine` too
 * (finished files often lack the final newline) but is not included in `endOffset`, so an append resumes before it.
 */
export async function readLines(
  path: string,
  onLine: (line: LineVisit) => void,
  options: LineReadOptions = {},
): Promise<LineReadResult> {
  const start = options.start ?? 0;
  const end = options.end ?? Number.MAX_SAFE_INTEGER;
  const lines = new LineAssembler(
    {
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      clip: options.clipStrings,
      skip: options.skip,
      atFileStart: start === 0,
    },
    onLine,
  );
  let offset = start;
  const handle = await openForRead(path);
  const buffer = takeReadBuffer();
  let head: Buffer | undefined;
  let lastChunkStart = start;
  let lastChunkBytes = 0;
  let tail: Buffer | undefined;
  try {
    for (;;) {
      const bytesRead = await handle.read(buffer, offset, Math.min(buffer.length, end - offset));
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (offset === 0) head = Buffer.from(chunk.subarray(0, EDGE_BYTES));
      lastChunkStart = offset;
      lastChunkBytes = bytesRead;
      offset += bytesRead;
      lines.push(chunk);
    }
    lines.finish();
    const lastLineEnd = start + lines.consumed;
    const tailFrom = lastLineEnd - Math.min(EDGE_BYTES, lastLineEnd);
    if (tailFrom >= lastChunkStart && lastLineEnd <= lastChunkStart + lastChunkBytes)
      tail = Buffer.from(buffer.subarray(tailFrom - lastChunkStart, lastLineEnd - lastChunkStart));
  } finally {
    await handle.close();
    giveReadBuffer(buffer);
  }
  const endOffset = start + lines.consumed;
  return {
    endOffset,
    lines: lines.lines,
    skippedLongLines: lines.skippedLongLines,
    skippedLines: lines.skippedLines,
    trailingBytes: offset - endOffset,
    bytesRead: offset - start,
    edges: { head, tail },
  };
}
