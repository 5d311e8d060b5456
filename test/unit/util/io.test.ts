import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { openForWrite, readTextIfExists, readTextRange, setBlockingIo } from '../../../src/core/util/io';

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
        // a surrogate pair just where a slice of the text would end
        'a'.repeat(1024 * 1024 - 1) + '😀 tail',
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

  for (const blocking of [false, true]) {
    it(`reads large texts whole, characters split across read chunks included (${blocking ? 'blocking' : 'async'})`, async () => {
      setBlockingIo(blocking);
      const dir = mkdtempSync(join(tmpdir(), 'combee-io-'));
      const path = join(dir, 'big.txt');
      // two-byte and four-byte characters, so chunk edges fall inside them
      const text = 'é'.repeat(700_000) + '😀'.repeat(300_000) + 'end';
      writeFileSync(path, text);
      assert.equal(await readTextIfExists(path), text);
      assert.equal(await readTextIfExists(join(dir, 'missing.txt')), undefined);
      const offset = Buffer.byteLength('é'.repeat(10));
      assert.equal(await readTextRange(path, offset, Buffer.byteLength('é'.repeat(5))), 'é'.repeat(5));
      assert.equal(await readTextRange(path, 0, Buffer.byteLength(text) + 1), undefined, 'a range past the end');
    });
  }
});
