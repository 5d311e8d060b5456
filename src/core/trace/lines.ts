import { createReadStream } from 'node:fs';

export interface LineReadOptions {
  /** Byte offset to start from (incremental re-import of append-only logs). */
  start?: number;
  /** Lines longer than this are skipped with a warning instead of being held in memory. */
  maxLineBytes?: number;
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
  /** Bytes after the last newline (a line still being written); not consumed, not counted in endOffset. */
  trailingBytes: number;
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Streams a file line by line without ever building a string bigger than one line, and never a line over
 * `maxLineBytes` (those are counted and skipped: one 700 MB line must not take the process down).
 * An unterminated last line is handed to `onLine` too (finished files often lack the final newline) but is
 * not included in `endOffset`, so an append resumes before it.
 */
export async function readLines(path: string, onLine: (line: LineVisit) => void, options: LineReadOptions = {}): Promise<LineReadResult> {
  const start = options.start ?? 0;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let offset = start;
  let lineStartOffset = start;
  let endOffset = start;
  let lines = 0;
  let skippedLongLines = 0;

  const emit = (buf: Buffer) => {
    lines++;
    let text = buf.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length > 0) onLine({ text, lineNo: lines });
  };

  for await (const chunk of createReadStream(path, { start, highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, from);
      const end = nl === -1 ? chunk.length : nl;
      if (!skipping) {
        const piece = chunk.subarray(from, end);
        if (pendingBytes + piece.length > maxLineBytes) {
          skipping = true;
          pending = [];
          pendingBytes = 0;
        } else if (piece.length > 0) {
          pending.push(piece);
          pendingBytes += piece.length;
        }
      }
      if (nl === -1) {
        offset += chunk.length - from;
        break;
      }
      offset += end - from + 1;
      if (skipping) {
        skippedLongLines++;
        lines++;
      } else {
        emit(pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes));
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
      lineStartOffset = offset;
      endOffset = offset;
      from = nl + 1;
    }
  }
  const trailingBytes = offset - lineStartOffset;
  if (trailingBytes > 0) {
    if (skipping) {
      skippedLongLines++;
      lines++;
    } else {
      emit(Buffer.concat(pending, pendingBytes));
    }
  }
  return { endOffset, lines, skippedLongLines, trailingBytes };
}
