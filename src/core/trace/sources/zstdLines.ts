import { open } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import { clipLimitsFor, JsonStringClipper, type JsonClipLimits } from '../jsonClip';
import type { ReadContext } from './types';
import { ZstdWindowGuard } from './zstdWindow';

const ZSTD_CHUNK_BYTES = 1 << 20;

/**
 * The lines of a zstd-compressed JSONL file, decompressed as it streams (fzstd, pure JS) and split with the same
 * per-line cap and string cuts as plain files: memory stays at one read chunk, the zstd window and one line. A damaged
 * or cut stream keeps the lines before the damage, with a warning.
 */
export async function readZstdLines(
  path: string,
  ctx: Pick<ReadContext, 'maxLineBytes' | 'maxOutputChars' | 'warn'>,
  onLine: (text: string, lineNo: number) => void,
): Promise<{ skippedLongLines: number }> {
  const splitter = new LineSplitter(ctx.maxLineBytes, clipLimitsFor(ctx.maxOutputChars), onLine);
  const decompress = new Decompress((chunk) => splitter.push(chunk));
  const guard = new ZstdWindowGuard();
  const handle = await open(path, 'r');
  let damaged = false;
  try {
    for (let position = 0; ;) {
      // A fresh buffer per read: fzstd keeps references to input it has not consumed yet.
      const buffer = Buffer.allocUnsafe(ZSTD_CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      decompress.push(guard.push(buffer.subarray(0, bytesRead)));
      if (guard.refused) throw guard.refused;
    }
    decompress.push(guard.end(), true);
  } catch (error) {
    damaged = true;
    ctx.warn(
      `${path}: zstd stream damaged or cut short (${(error as Error).message || 'invalid data'}); the lines before it are kept`,
    );
  } finally {
    await handle.close();
  }
  // A line cut by the damage is not one.
  if (!damaged) splitter.end();
  return { skippedLongLines: splitter.skippedLongLines };
}

/**
 * Splits decompressed bytes into lines, long JSON strings cut as they stream (as for plain files); a line still over
 * `maxLineBytes` is dropped as it grows, never assembled.
 */
class LineSplitter {
  skippedLongLines = 0;
  private clipper: JsonStringClipper | undefined;
  private dropping = false;
  private lineNo = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly clip: JsonClipLimits,
    private readonly onLine: (text: string, lineNo: number) => void,
  ) {}

  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let from = 0;
    for (let nl = bytes.indexOf(0x0a, from); nl !== -1; nl = bytes.indexOf(0x0a, from)) {
      this.add(bytes.subarray(from, nl));
      this.flush();
      from = nl + 1;
    }
    // The clipper copies what it keeps of an unfinished line: the decompressor may reuse its output.
    if (from < bytes.length) this.add(bytes.subarray(from));
  }

  /** The last line, even without a final newline. */
  end(): void {
    if (this.clipper || this.dropping) this.flush();
  }

  private add(piece: Buffer): void {
    if (this.dropping || piece.length === 0) return;
    this.clipper ??= new JsonStringClipper(this.clip);
    this.clipper.write(piece, 0, piece.length);
    if (this.clipper.size > this.maxLineBytes) {
      this.dropping = true;
      this.clipper = undefined;
    }
  }

  private flush(): void {
    this.lineNo++;
    if (this.dropping) {
      this.skippedLongLines++;
    } else if (this.clipper) {
      let text = this.clipper.end().toString('utf8');
      if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
      if (text.length > 0) this.onLine(text, this.lineNo);
    }
    this.clipper = undefined;
    this.dropping = false;
  }
}
