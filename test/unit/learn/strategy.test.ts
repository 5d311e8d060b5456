import assert from 'node:assert/strict';
import { learningStrategy } from '../../../src/core/learn/strategy';
import type { Strategy } from '../../../src/core/learn/types';

describe('learning strategies: what each decides, looked up once by name', () => {
  it('sequential learns one session at a time, whatever batch size is asked; the others keep it', () => {
    assert.equal(learningStrategy('sequential').batchSize(20), 1);
    assert.equal(learningStrategy('sequential').batchSize('auto'), 1);
    assert.equal(learningStrategy('combee').batchSize(20), 20);
    assert.equal(learningStrategy('naive').batchSize('auto'), 'auto');
  });

  it('only Combee scans in parallel, and only from 4 sessions in a batch', () => {
    assert.deepEqual(
      [3, 4, 40].map((n) => learningStrategy('combee').scans(n)),
      [false, true, true],
    );
    for (const name of ['naive', 'sequential'] as const) assert.equal(learningStrategy(name).scans(40), false);
  });

  it('only Combee sends an overloaded call’s dropped items again; each names its one-call aggregation apart', () => {
    const names: Strategy[] = ['combee', 'naive', 'sequential'];
    assert.deepEqual(
      names.map((name) => learningStrategy(name).redoesOverload),
      [true, false, false],
    );
    assert.equal(new Set(names.map((name) => learningStrategy(name).singleCallLabel)).size, 3);
    for (const name of names) assert.equal(learningStrategy(name).name, name);
  });
});
