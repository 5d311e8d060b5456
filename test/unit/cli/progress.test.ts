import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { lineProgress, terminalProgress } from '../../../src/cli/progress';

describe('CLI progress', () => {
  it('without a terminal: a plain line at each tenth of the way and at the end, never a flood', () => {
    const lines: string[] = [];
    const progress = lineProgress('importing', (line) => lines.push(line));
    for (let done = 1; done <= 1000; done++) progress.update(done, 1000, `file-${done}.jsonl`);
    progress.stop();
    assert.equal(lines.length, 11, 'the start, each tenth, the end');
    assert.equal(lines[0], 'importing: 1/1000 (file-1.jsonl)');
    assert.equal(lines.at(-1), 'importing: 1000/1000 (file-1000.jsonl)');
  });

  it('on a terminal: a bar with the count and what is going on, drawn on the stream it was given', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 }) as unknown as NodeJS.WriteStream;
    let drawn = '';
    (stream as unknown as PassThrough).on('data', (chunk: Buffer) => {
      drawn += chunk.toString();
    });
    const progress = terminalProgress('importing', stream);
    progress.update(1, 4, 'a.jsonl');
    progress.update(4, 4, 'd.jsonl');
    progress.stop();
    assert.match(drawn, /importing \[[█░]+\] 100% \| 4\/4 \| d\.jsonl/);
  });
});
