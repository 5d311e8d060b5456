import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openForWrite, setBlockingIo } from '../../../src/core/util/io';

describe('openForWrite', () => {
  after(() => setBlockingIo(false));

  for (const blocking of [false, true]) {
    it(`writes texts as their exact UTF-8 and counts their bytes (${blocking ? 'blocking, as in workers' : 'async'})`, async () => {
      setBlockingIo(blocking);
      const path = join(mkdtempSync(join(tmpdir(), 'combee-io-')), 'deep', 'out.json');
      // multi-byte characters, a surrogate pair, a lone surrogate, and texts on both sides of the shared buffer's limit
      const parts = [
        '{"a":"plain"}',
        'é → ✓ 😀',
        'half \ud83d pair',
        'x'.repeat(3 * 1024 * 1024) + 'ü',
        'short again',
        Buffer.from('raw bytes'),
      ];
      const handle = await openForWrite(path, 'w');
      const counted: number[] = [];
      for (const part of parts) counted.push(await handle.write(part));
      await handle.close();
      const expected = parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p));
      assert.deepEqual(
        counted,
        expected.map((b) => b.length),
      );
      assert.ok(readFileSync(path).equals(Buffer.concat(expected)));
    });
  }
});
