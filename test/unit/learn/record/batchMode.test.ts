import assert from 'node:assert/strict';
import { countBatchModes, describeBatchMode } from '../../../../src/core/learn/record/batchMode';
import { RunRecord } from '../../../../src/core/learn/record/record';
import { learn } from '../../../../src/core/learn/run';
import { renderRunTree } from '../../../../src/core/learn/record/treeText';
import { parsePlaybook } from '../../../../src/core/playbook/markdown';
import {
  CountingAggregator,
  learnBase as base,
  numberedTraces as traces,
  ScriptedReflector,
} from '../../../support/learnRoles';

/** Kinds of the aggregation calls batch 0 recorded, in the order they were recorded. */
const callKinds = (record: RunRecord) =>
  record.nodes.filter((n) => n.batch === 0 && ['single', 'local', 'global'].includes(n.kind)).map((n) => n.kind);

describe('batch modes: what each batch really ran', () => {
  it('a batch of one session: one aggregation call', async () => {
    const result = await learn({
      ...base,
      traces: traces(1),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
    });
    assert.equal(result.record.batches[0].mode, 'single_call');
    assert.deepEqual(callKinds(result.record), ['single']);
  });

  it('a small batch (n < 4) fits one group, k = 1: one aggregation call, no scan', async () => {
    const result = await learn({
      ...base,
      traces: traces(3),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
    });
    assert.equal(result.record.batches[0].mode, 'single_call');
    assert.equal(result.record.batches[0].k, 1);
    assert.deepEqual(callKinds(result.record), ['single']);
  });

  it('a normal batch: local deltas merged by a global call', async () => {
    const result = await learn({
      ...base,
      traces: traces(16),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
      seed: 2,
    });
    const batch = result.record.batches[0];
    assert.equal(batch.mode, 'parallel_scan');
    assert.deepEqual(callKinds(result.record), ['local', 'local', 'local', 'local', 'global']);
    assert.equal(describeBatchMode(batch), 'parallel_scan (k = 4, 2 level(s))');
  });

  it('reflections that give no operations: no_deltas, whether one call or a scan was planned (the calls still carry their tags)', async () => {
    for (const n of [2, 16]) {
      const reflector = new ScriptedReflector();
      reflector.lessons = false;
      const aggregator = new CountingAggregator();
      const result = await learn({ ...base, traces: traces(n), reflector, aggregator });
      assert.equal(result.record.batches[0].mode, 'no_deltas', `n = ${n}`);
      assert.equal(aggregator.calls.length, n < 4 ? 1 : 5, 'the same calls as before modes were recorded');
      assert.deepEqual(result.learnedTraceIds.length, n);
    }
  });

  it('local deltas with nothing new (the playbook already says it all): no_deltas, though the global call ran', async () => {
    const known = parsePlaybook(
      `## Workflow\n${traces(9)
        .map((t, i) => `[wor-${String(i + 1).padStart(5, '0')}] helpful=0 harmful=0 :: lesson from ${t.id}`)
        .join('\n')}\n`,
    );
    const result = await learn({
      ...base,
      playbook: known,
      traces: traces(9),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
    });
    assert.deepEqual(callKinds(result.record), ['local', 'local', 'local', 'global']);
    assert.equal(result.record.batches[0].mode, 'no_deltas');
  });

  it('one group whose local delta alone came back: applied directly, one_group, no global call', async () => {
    const aggregator = new CountingAggregator();
    aggregator.failWhen = (input, index) => input.level === 'local' && index > 0;
    const result = await learn({ ...base, traces: traces(9), reflector: new ScriptedReflector(), aggregator, seed: 3 });
    const batch = result.record.batches[0];
    assert.equal(batch.mode, 'one_group');
    assert.ok(!callKinds(result.record).includes('global'));
    assert.equal(result.record.nodes.find((n) => n.kind === 'apply')?.parents[0], 'b0:local:0');
    assert.match(
      renderRunTree(result.record),
      /batch 1: 9 session\(s\), one_group \(1 of 3 local deltas, no global call\)/,
    );
  });

  it('no local delta came back, or no reflection succeeded: no_deltas, nothing applied', async () => {
    const aggregator = new CountingAggregator();
    aggregator.failWhen = (input) => input.level === 'local';
    const failedLocals = await learn({ ...base, traces: traces(9), reflector: new ScriptedReflector(), aggregator });
    assert.equal(failedLocals.record.batches[0].mode, 'no_deltas');
    const reflector = new ScriptedReflector();
    for (const t of traces(5)) reflector.failOn.add(t.id);
    const failedReflections = await learn({
      ...base,
      traces: traces(5),
      reflector,
      aggregator: new CountingAggregator(),
    });
    assert.equal(failedReflections.record.batches[0].mode, 'no_deltas');
    assert.equal(describeBatchMode(failedReflections.record.batches[0]), 'no_deltas (no reflection succeeded)');
    for (const run of [failedLocals, failedReflections]) assert.ok(!run.record.nodes.some((n) => n.kind === 'apply'));
  });

  it('naive and sequential batches make one call each: single_call (the run says which strategy)', async () => {
    for (const strategy of ['naive', 'sequential'] as const) {
      const result = await learn({
        ...base,
        traces: traces(6),
        reflector: new ScriptedReflector(),
        aggregator: new CountingAggregator(),
        strategy,
      });
      assert.deepEqual(new Set(result.record.batches.map((b) => b.mode)), new Set(['single_call']), strategy);
      assert.equal(result.record.strategy, strategy);
    }
  });

  it('counts the modes of a run for its summary line', () => {
    assert.equal(
      countBatchModes([{ mode: 'single_call' }, { mode: 'parallel_scan' }, { mode: 'parallel_scan' }]),
      'single_call × 1, parallel_scan × 2',
    );
  });
});

describe('run records written before batch modes', () => {
  /** A record as an older learner wrote it: the same, with the modes it recorded then. */
  const asWrittenBefore = (record: RunRecord, mode: string) =>
    JSON.parse(JSON.stringify({ ...record, batches: record.batches.map((b) => ({ ...b, mode })) })) as unknown;

  it('read with the mode their nodes show was really run', async () => {
    const aggregator = new CountingAggregator();
    aggregator.failWhen = (input, index) => input.level === 'local' && index > 0;
    const oneGroup = (
      await learn({ ...base, traces: traces(9), reflector: new ScriptedReflector(), aggregator, seed: 3 })
    ).record;
    assert.equal(
      RunRecord.parse(asWrittenBefore(oneGroup, 'parallel_scan')).batches[0].mode,
      'one_group',
      'no global call was made',
    );
    const scan = (
      await learn({
        ...base,
        traces: traces(16),
        reflector: new ScriptedReflector(),
        aggregator: new CountingAggregator(),
      })
    ).record;
    assert.equal(RunRecord.parse(asWrittenBefore(scan, 'parallel_scan')).batches[0].mode, 'parallel_scan');
    const naive = (
      await learn({
        ...base,
        traces: traces(6),
        reflector: new ScriptedReflector(),
        aggregator: new CountingAggregator(),
        strategy: 'naive',
      })
    ).record;
    assert.equal(RunRecord.parse(asWrittenBefore(naive, 'naive')).batches[0].mode, 'single_call');
    const reflector = new ScriptedReflector();
    for (const t of traces(2)) reflector.failOn.add(t.id);
    const empty = (await learn({ ...base, traces: traces(2), reflector, aggregator: new CountingAggregator() })).record;
    assert.equal(
      RunRecord.parse(asWrittenBefore(empty, 'single_call')).batches[0].mode,
      'no_deltas',
      'no call was made',
    );
  });

  it('records written since read back as they were written', async () => {
    const aggregator = new CountingAggregator();
    aggregator.failWhen = (input, index) => input.level === 'local' && index > 0;
    for (const record of [
      (await learn({ ...base, traces: traces(9), reflector: new ScriptedReflector(), aggregator, seed: 3 })).record,
      (
        await learn({
          ...base,
          traces: traces(40),
          reflector: new ScriptedReflector(),
          aggregator: new CountingAggregator(),
          batchSize: 5,
        })
      ).record,
    ]) {
      const stored = JSON.stringify(record);
      assert.equal(JSON.stringify(RunRecord.parse(JSON.parse(stored))), stored);
    }
  });
});
