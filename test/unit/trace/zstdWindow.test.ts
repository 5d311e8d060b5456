import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZstdWindowGuard } from '../../../src/core/trace/sources/zstdWindow';
import { FIXTURES } from '../../support/paths';
import { rawFrame, skippableFrame } from '../../support/zstdFrames';

const COMPRESSED = readFileSync(
  join(FIXTURES, 'zst', 'rollout-2026-05-04T10-11-12-019e0a1b-2c3d-7e4f-8a9b-0c1d2e3f4a5b.jsonl.zst'),
);
// Window_Descriptor (20 << 3) | 7: 2^30 + 7/8 of it, 1920 MB.
const HUGE = (20 << 3) | 7;

/** Pushes `stream` in chunks of `size` bytes: what the guard let through, in order, and why it stopped. */
function walk(stream: Buffer, size: number, guard = new ZstdWindowGuard()): { passed: Buffer; refused?: string } {
  const passed: Uint8Array[] = [];
  for (let at = 0; at < stream.length && !guard.refused; at += size)
    passed.push(guard.push(stream.subarray(at, at + size)));
  if (!guard.refused) passed.push(guard.end());
  const bytes = Buffer.concat(passed);
  return guard.refused ? { passed: bytes, refused: guard.refused.message } : { passed: bytes };
}

describe('zstd window guard', () => {
  it('lets a stream of ordinary frames through whole and in order, however it is chunked', () => {
    const stream = Buffer.concat([
      rawFrame(Buffer.from('{"a":1}\n'), { blockBytes: 3 }),
      skippableFrame(Buffer.alloc(5, 7), 3),
      COMPRESSED,
      rawFrame(Buffer.alloc(0)),
      rawFrame(Buffer.from('x'), { windowDescriptor: 0 }),
    ]);
    for (const size of [1, 2, 7, 18, 64, stream.length])
      assert.deepEqual(walk(stream, size), { passed: stream }, `chunks of ${size}`);
  });

  it('gives nothing of a frame asking for a window over 128 MB, wherever the chunks fall', () => {
    const before = Buffer.concat([COMPRESSED, skippableFrame(Buffer.alloc(3))]);
    const stream = Buffer.concat([
      before,
      rawFrame(Buffer.from('{"b":2}\n'), { windowDescriptor: HUGE }),
      rawFrame(Buffer.from('after')),
    ]);
    for (const size of [1, 5, 17, 1000, stream.length]) {
      assert.deepEqual(
        walk(stream, size),
        {
          passed: before,
          refused: `the frame at byte ${before.length} asks for a 1920 MB window, over the 128 MB zstd decodes by default`,
        },
        `chunks of ${size}`,
      );
    }
  });

  it('takes the window of a single-segment frame from its content size, and a window at the limit', () => {
    const single = rawFrame(Buffer.alloc(10));
    single.writeUInt32LE(0x4000_0000, 5); // content size 1 GB (its blocks are cut short: the decompressor would say so)
    assert.match(walk(single, single.length).refused ?? '', /asks for a 1024 MB window/);
    const atLimit = rawFrame(Buffer.from('ok'), { windowDescriptor: 17 << 3 }); // 2^27
    assert.deepEqual(walk(atLimit, 4), { passed: atLimit });
  });

  it('leaves what is not zstd to the decompressor', () => {
    const junk = Buffer.from('not zstd at all, and no frame after it either');
    assert.deepEqual(walk(junk, 3), { passed: junk });
  });
});
