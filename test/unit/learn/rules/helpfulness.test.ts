import assert from 'node:assert/strict';
import { helpfulnessHistory } from '../../../../src/core/learn/rules/helpfulness';
import type { RunRecord } from '../../../../src/core/learn/record/record';

const run = (startedAt: string, tags: Array<Array<{ id: string; tag: 'helpful' | 'harmful' | 'neutral' }>>) =>
  ({ startedAt, batches: tags.map((t) => ({ tags: t })) }) as unknown as RunRecord;

describe('rule helpfulness over time', () => {
  it('accumulates the recorded tags run by run, oldest first, the last tag per batch counting', () => {
    const history = helpfulnessHistory([
      run('2026-11-20T00:00:00Z', [[{ id: 'bat-00001', tag: 'harmful' }]]),
      run('2026-11-10T00:00:00Z', [
        [
          { id: 'bat-00001', tag: 'helpful' },
          { id: 'bat-00002', tag: 'neutral' },
        ],
        [
          { id: 'bat-00001', tag: 'harmful' },
          { id: 'bat-00001', tag: 'helpful' },
        ],
      ]),
    ]);
    assert.deepEqual(history.get('bat-00001'), [
      { at: '2026-11-10T00:00:00Z', helpful: 2, harmful: 0 },
      { at: '2026-11-20T00:00:00Z', helpful: 2, harmful: 1 },
    ]);
    assert.equal(history.has('bat-00002'), false);
  });
});
