import assert from 'node:assert/strict';
import { learn } from '../../../src/core/learn/run';
import { offlineRoles } from '../../../src/core/llm/providers';
import { serializePlaybook } from '../../../src/core/playbook/markdown';
import { bullets, type Playbook } from '../../../src/core/playbook/model';
import type { Trace } from '../../../src/core/trace/model';
import type { Aggregator } from '../../../src/core/learn/types';
import {
  clocklessRecord,
  CountingAggregator,
  learnBase as base,
  numberedTraces as traces,
  ScriptedReflector,
} from '../../support/learnRoles';
import { makeTrace, shell, user } from '../../../testing/traces';

describe('learning run', () => {
  it('combee at n=40: 40 reflections, k=6 local aggregations over 80 shuffled slots, 1 global; nothing lost', async () => {
    const aggregator = new CountingAggregator();
    const result = await learn({
      ...base,
      traces: traces(40),
      reflector: new ScriptedReflector(),
      aggregator,
      batchSize: 40,
      seed: 9,
    });
    assert.deepEqual(
      aggregator.calls.map((c) => c.level),
      ['local', 'local', 'local', 'local', 'local', 'local', 'global'],
    );
    assert.deepEqual(
      aggregator.calls.slice(0, 6).map((c) => c.reflections),
      [14, 14, 13, 13, 13, 13],
    );
    assert.equal(aggregator.calls[6].deltas, 6);
    assert.equal(bullets(result.playbook).length, 40, 'every planted lesson reaches the playbook');
    const record = result.record;
    assert.equal(record.status, 'completed');
    assert.equal(record.seed, 9);
    assert.equal(record.batches[0].k, 6);
    assert.equal(record.batches[0].levels, 2);
    assert.equal(record.totals.calls, 40 + 7);
    assert.equal(record.nodes.filter((n) => n.kind === 'group').length, 6);
    // Duplicates count once: every added rule is supported by exactly its one trace.
    const apply = record.nodes.find((n) => n.kind === 'apply');
    assert.ok(
      Array.isArray(apply?.detail) &&
        (apply.detail as Array<{ support: unknown[] }>).every((a) => a.support.length === 1),
    );
  });

  it('replays the same tree from the same seed', async () => {
    const run = (seed: number) =>
      learn({
        ...base,
        traces: traces(20),
        reflector: new ScriptedReflector(),
        aggregator: new CountingAggregator(),
        seed,
      });
    const [a, b] = await Promise.all([run(3), run(3)]);
    assert.deepEqual(a.record.batches[0].groups, b.record.batches[0].groups);
    assert.equal(serializePlaybook(a.playbook), serializePlaybook(b.playbook));
  });

  it('the same sessions and seed write the same run record, byte for byte apart from the clock', async () => {
    const failing = new Set(['t004']);
    const run = async (seed: number) => {
      const reflector = new ScriptedReflector();
      reflector.failOn = failing;
      const result = await learn({
        ...base,
        traces: traces(100),
        reflector,
        aggregator: offlineRoles().aggregator,
        batchSize: 30,
        maxFanIn: 3,
        seed,
      });
      return clocklessRecord(result.record);
    };
    const [a, b, c] = [await run(8), await run(8), await run(9)];
    assert.equal(a, b);
    assert.notEqual(a, c, 'the seed reaches the record');
  });

  it('naive makes one aggregation call over all reflections', async () => {
    const aggregator = new CountingAggregator();
    await learn({
      ...base,
      traces: traces(12),
      reflector: new ScriptedReflector(),
      aggregator,
      strategy: 'naive',
      batchSize: 40,
    });
    assert.deepEqual(aggregator.calls, [{ level: 'single', reflections: 12, deltas: 0 }]);
  });

  it('sequential learns one trace per batch, each batch seeing the playbook the previous one produced', async () => {
    const reflector = new ScriptedReflector();
    const result = await learn({
      ...base,
      traces: traces(5),
      reflector,
      aggregator: new CountingAggregator(),
      strategy: 'sequential',
    });
    assert.deepEqual(reflector.seenPlaybooks, [0, 1, 2, 3, 4]);
    assert.equal(result.record.batches.length, 5);
    assert.equal(result.record.batchSize, 1);
  });

  it('n < 4 takes one ordinary aggregation call', async () => {
    const aggregator = new CountingAggregator();
    const result = await learn({ ...base, traces: traces(3), reflector: new ScriptedReflector(), aggregator });
    assert.deepEqual(
      aggregator.calls.map((c) => c.level),
      ['single'],
    );
    assert.equal(result.record.batches[0].mode, 'single_call');
  });

  it('adds a scan level when the local deltas exceed the fan-in of one call', async () => {
    const aggregator = new CountingAggregator();
    const result = await learn({
      ...base,
      traces: traces(100),
      reflector: new ScriptedReflector(),
      aggregator,
      batchSize: 100,
      maxFanIn: 4,
    });
    // k = 10 local deltas > 4 → ⌊√10⌋ = 3 level-2 groups → 1 global
    assert.deepEqual(
      aggregator.calls.map((c) => c.level).join(','),
      [...Array(10).fill('local'), 'global', 'global', 'global', 'global'].join(','),
    );
    assert.equal(result.record.batches[0].levels, 3);
    assert.equal(bullets(result.playbook).length, 100);
  });

  it('a failed reflection fails its node, not the run', async () => {
    const reflector = new ScriptedReflector();
    reflector.failOn.add('t002');
    const result = await learn({ ...base, traces: traces(6), reflector, aggregator: new CountingAggregator() });
    assert.equal(result.record.status, 'completed');
    assert.equal(bullets(result.playbook).length, 5);
    assert.match(result.record.warnings.join('\n'), /reflection on t002 failed: model said no/);
    assert.equal(result.record.nodes.find((n) => n.id === 'b0:reflection:t002')?.status, 'failed');
    assert.deepEqual(
      result.failedTraces,
      [{ id: 't002', reason: 'its reflection failed' }],
      'left to be learned again',
    );
    assert.ok(!result.learnedTraceIds.includes('t002'));
    assert.equal(result.learnedTraceIds.length, 5);
  });

  it('a run whose calls all or mostly failed ends as failed, and learns none of the sessions they were for', async () => {
    const reflector = new ScriptedReflector();
    for (const t of traces(6)) reflector.failOn.add(t.id);
    const result = await learn({ ...base, traces: traces(6), reflector, aggregator: new CountingAggregator() });
    assert.equal(result.record.status, 'failed');
    assert.match(result.record.warnings.join('\n'), /run failed: 6 of 6 model calls failed \(first: model said no\)/);
    assert.deepEqual(result.learnedTraceIds, []);
    assert.equal(result.failedTraces.length, 6);
  });

  it('a failed aggregation leaves its whole batch to be learned again', async () => {
    const aggregator = new CountingAggregator();
    const failing: Aggregator = {
      aggregate: (input, playbook, signal) =>
        input.level === 'global'
          ? Promise.reject(new Error('500 from the endpoint'))
          : aggregator.aggregate(input, playbook, signal),
    };
    const result = await learn({
      ...base,
      traces: traces(16),
      reflector: new ScriptedReflector(),
      aggregator: failing,
      batchSize: 16,
      seed: 1,
    });
    assert.deepEqual(result.learnedTraceIds, []);
    assert.ok(result.failedTraces.every((f) => f.reason === 'an aggregation of its batch failed'));
    assert.equal(result.failedTraces.length, 16);
  });

  it('without a seed, the seed comes from the sessions: the same sessions shuffle alike, others differently', async () => {
    const run = (n: number) =>
      learn({ ...base, traces: traces(n), reflector: new ScriptedReflector(), aggregator: new CountingAggregator() });
    const [a, b, c] = await Promise.all([run(20), run(20), run(21)]);
    assert.equal(a.record.seed, b.record.seed);
    assert.deepEqual(a.record.batches[0].groups, b.record.batches[0].groups);
    assert.notEqual(a.record.seed, c.record.seed);
  });

  it('a cancel keeps the batches already finished', async () => {
    const controller = new AbortController();
    const aggregator = new CountingAggregator();
    const result = await learn({
      ...base,
      traces: traces(6),
      reflector: new ScriptedReflector(),
      aggregator,
      batchSize: 2,
      signal: controller.signal,
      onProgress: (message) => {
        if (message.startsWith('batch 2 (') && message.endsWith(': done')) controller.abort();
      },
    });
    assert.equal(result.record.status, 'cancelled');
    assert.equal(result.learnedTraceIds.length, 4);
    assert.equal(bullets(result.playbook).length, 4);
  });

  it('learns real rules end to end with the offline roles, merging the same lesson from several sessions', async () => {
    const failingThenFixed = (id: string) =>
      makeTrace(id, [
        user('run tests'),
        ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
        ...shell('pnpm db:generate', 'ok'),
        ...shell('pnpm test', 'passed'),
      ]);
    const roles = offlineRoles();
    const result = await learn({
      ...base,
      traces: [failingThenFixed('a'), failingThenFixed('b'), failingThenFixed('c'), failingThenFixed('d')],
      ...roles,
      seed: 1,
    });
    const text = serializePlaybook(result.playbook);
    assert.match(text, /^\[test-00001\] helpful=0 harmful=0 :: Run `pnpm db:generate` before `pnpm test`/m);
    const added = result.applied.find((a) => a.id === 'test-00001');
    assert.deepEqual(added?.op.support.map((s) => s.traceId).sort(), ['a', 'b', 'c', 'd']);
  });

  it('batch size auto without a recorded profile: profiles 4, 8, 16, 32, learns the rest at the default size, hands back the profile', async () => {
    const result = await learn({
      ...base,
      traces: traces(200),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
      batchSize: 'auto',
    });
    const sizes = result.record.batches.map((b) => b.traceIds.length);
    assert.deepEqual(sizes.slice(0, 4), [4, 8, 16, 32]);
    assert.ok(
      sizes.slice(4, -1).every((s) => s === 40),
      sizes.join(','),
    );
    const controller = result.record.controller;
    assert.ok(controller && controller.profiled.length === 4 && controller.fit);
    assert.equal(controller.chosen, 40);
    assert.match(controller.reason, /the next run uses the size this profile gives/);
    assert.deepEqual(
      result.measuredProfile.map((m) => m.batchSize),
      [4, 8, 16, 32],
    );
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      200,
    );
    assert.equal(bullets(result.playbook).length, 200);
  });

  it('batch size auto with a recorded profile decides at once, from it alone: same seed, same batches, whatever the latencies', async () => {
    const profile = [
      { batchSize: 4, delayMs: 400 },
      { batchSize: 8, delayMs: 450 },
      { batchSize: 16, delayMs: 600 },
      { batchSize: 32, delayMs: 1000 },
    ];
    const slowReflector = new (class extends ScriptedReflector {
      override async reflect(trace: Trace, playbook: Playbook) {
        await new Promise((resolve) => setTimeout(resolve, Number(trace.id.slice(1)) % 3));
        return super.reflect(trace, playbook);
      }
    })();
    const [fast, slow] = await Promise.all([
      learn({
        ...base,
        traces: traces(120),
        reflector: new ScriptedReflector(),
        aggregator: new CountingAggregator(),
        batchSize: 'auto',
        latencyProfile: profile,
        seed: 5,
      }),
      learn({
        ...base,
        traces: traces(120),
        reflector: slowReflector,
        aggregator: new CountingAggregator(),
        batchSize: 'auto',
        latencyProfile: profile,
        seed: 5,
      }),
    ]);
    const sizes = fast.record.batches.map((b) => b.traceIds.length);
    const chosen = fast.record.controller?.chosen;
    assert.ok(chosen && sizes.slice(0, -1).every((s) => s === chosen), `${sizes.join(',')} vs ${chosen}`);
    assert.match(fast.record.controller?.reason ?? '', /from the latency profile recorded for this model/);
    assert.deepEqual(
      slow.record.batches.map((b) => b.groups),
      fast.record.batches.map((b) => b.groups),
    );
    assert.equal(serializePlaybook(slow.playbook), serializePlaybook(fast.playbook));
    assert.deepEqual(fast.measuredProfile, []);
  });

  it('batch size auto with few sessions learns them in one batch', async () => {
    const result = await learn({
      ...base,
      traces: traces(6),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
      batchSize: 'auto',
    });
    assert.deepEqual(
      result.record.batches.map((b) => b.traceIds.length),
      [6],
    );
    assert.match(result.record.controller?.reason ?? '', /too few sessions/);
  });

  it('batch size auto with too few sessions to profile two sizes learns them in the one batch it records', async () => {
    // 8 to 23 sessions leave room for one profile size only (4): the run must not profile with it after all
    for (const count of [9, 23]) {
      const result = await learn({
        ...base,
        traces: traces(count),
        reflector: new ScriptedReflector(),
        aggregator: new CountingAggregator(),
        batchSize: 'auto',
      });
      assert.deepEqual(
        result.record.batches.map((b) => b.traceIds.length),
        [count],
      );
      assert.equal(result.record.controller?.chosen, count);
      assert.match(result.record.controller?.reason ?? '', /too few sessions \(\d+\) to profile: one batch/);
    }
  });

  it('stops cleanly at a token limit, keeping the batches finished before it', async () => {
    const result = await learn({
      ...base,
      traces: traces(10),
      reflector: new ScriptedReflector(),
      aggregator: new CountingAggregator(),
      batchSize: 2,
      limits: { maxTokens: 100 },
    });
    assert.equal(result.record.status, 'stopped');
    assert.match(
      result.record.warnings.join('\n'),
      /token limit of 100 reached; the batches finished before it are kept/,
    );
    assert.deepEqual(result.learnedTraceIds, ['t000', 't001', 't002', 't003']);
    assert.equal(bullets(result.playbook).length, 4);
  });
});
