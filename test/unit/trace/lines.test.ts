import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLines } from '../../../src/core/trace/lines';
import { tempDir } from '../../../testing/tmp';

const tmp = () => tempDir('combee-lines-');

describe('streaming line reader', () => {
  it('reads lines, reports the resume offset before an unterminated last line, and resumes from it', async () => {
    const path = join(tmp(), 'a.jsonl');
    writeFileSync(path, 'one\r\ntwo\nthr');
    const seen: string[] = [];
    const first = await readLines(path, (l) => seen.push(l.text));
    assert.deepEqual(seen, ['one', 'two', 'thr']);
    assert.equal(first.endOffset, 9);
    assert.equal(first.trailingBytes, 3);
    appendFileSync(path, 'ee\nfour\n');
    const more: string[] = [];
    const second = await readLines(path, (l) => more.push(l.text), { start: first.endOffset });
    assert.deepEqual(more, ['three', 'four']);
    assert.equal(second.trailingBytes, 0);
  });

  it('skips a line over the limit without holding it, and goes on', async () => {
    const path = join(tmp(), 'b.jsonl');
    writeFileSync(path, `small\n${'x'.repeat(3_000_000)}\nafter\n${'y'.repeat(2_000_000)}`);
    const seen: string[] = [];
    const result = await readLines(path, (l) => seen.push(l.text), { maxLineBytes: 1_000_000 });
    assert.deepEqual(seen, ['small', 'after']);
    assert.equal(result.skippedLongLines, 2);
  });

  it('keeps multi-byte characters split across chunk boundaries intact', async () => {
    const path = join(tmp(), 'c.jsonl');
    const line = 'é'.repeat(700_000);
    writeFileSync(path, `${line}\n`);
    let got = '';
    await readLines(path, (l) => {
      got = l.text;
    });
    assert.equal(got, line);
  });
});
