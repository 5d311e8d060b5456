import assert from 'node:assert/strict';
import { estimateRun } from '../../../src/core/learn/estimate';
import { makeTrace, shell, user } from '../../../testing/traces';

describe('run estimate', () => {
  const traces = Array.from({ length: 40 }, (_, i) =>
    makeTrace(`t${i}`, [user('fix the bug'), ...shell('pnpm test', 'x'.repeat(10_000), 1)]),
  );

  it('counts n reflections plus k + 1 aggregations per combee batch, 1 per naive batch, n per sequential run', () => {
    assert.equal(estimateRun(traces, { strategy: 'combee', batchSize: 40, budgetTokens: 6000 }).calls, 40 + 6 + 1);
    assert.equal(estimateRun(traces, { strategy: 'naive', batchSize: 40, budgetTokens: 6000 }).calls, 41);
    assert.equal(estimateRun(traces, { strategy: 'sequential', batchSize: 40, budgetTokens: 6000 }).calls, 80);
    assert.equal(
      estimateRun(traces, { strategy: 'combee', batchSize: 20, budgetTokens: 6000 }).calls,
      40 + 2 * (4 + 1),
    );
  });

  it('caps each session at the condensing budget and prices the input when a price is known', () => {
    const small = estimateRun(traces, { strategy: 'naive', batchSize: 40, budgetTokens: 500 });
    const large = estimateRun(traces, { strategy: 'naive', batchSize: 40, budgetTokens: 6000 });
    assert.ok(small.inputTokens < large.inputTokens);
    const priced = estimateRun(traces, { strategy: 'naive', batchSize: 40, budgetTokens: 6000, pricePerMTokInput: 2 });
    assert.equal(priced.costUsd, (priced.inputTokens * 2) / 1e6);
    assert.equal(large.costUsd, undefined);
  });
});
