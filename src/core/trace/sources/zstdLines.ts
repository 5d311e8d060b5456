import { open } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import { clipLimitsFor } from '../jsonClip';
import { LineAssembler } from '../lineAssembler';
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
  const lines = new LineAssembler(
    { maxLineBytes: ctx.maxLineBytes, clip: clipLimitsFor(ctx.maxOutputChars), atFileStart: true },
    ({ text, lineNo }) => onLine(text, lineNo),
  );
  // What the assembler keeps of an unfinished line it copies: the decompressor may reuse its output.
  const decompress = new Decompress((chunk) =>
    lines.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
  );
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
  if (!damaged) lines.finish();
  return { skippedLongLines: lines.skippedLongLines };
}
