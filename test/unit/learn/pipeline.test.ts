import assert from 'node:assert/strict';
import { learn } from '../../../src/core/learn/run';
import type { AggregationInput, Reflection, RoleResult } from '../../../src/core/learn/types';
import type { Delta } from '../../../src/core/playbook/delta';
import type { Playbook } from '../../../src/core/playbook/model';
import type { Trace } from '../../../src/core/trace/model';
import {
  clocklessRecord,
  CountingAggregator,
  learnBase as base,
  numberedTraces as traces,
  ScriptedReflector,
} from '../../support/learnRoles';

/** A reflector whose calls take the time `delayOf` gives each trace, logging when each one ends. */
class TimedReflector extends ScriptedReflector {
  constructor(
    private readonly delayOf: (trace: Trace) => number,
    private readonly log: string[],
  ) {
    super();
  }
  override async reflect(trace: Trace, playbook: Playbook): Promise<RoleResult<Reflection>> {
    await new Promise((resolve) => setTimeout(resolve, this.delayOf(trace)));
    this.log.push(`reflected ${trace.id}`);
    return super.reflect(trace, playbook);
  }
}

class LoggingAggregator extends CountingAggregator {
  constructor(private readonly log: string[]) {
    super();
  }
  override async aggregate(
    input: AggregationInput,
    playbook: Playbook,
    signal?: AbortSignal,
  ): Promise<RoleResult<Delta>> {
    this.log.push(`${input.level} over ${input.reflections.map((r) => r.traceId).join(',')}`);
    return super.aggregate(input, playbook, signal);
  }
}

describe('pipelined scan: each group aggregated as soon as its sessions are reflected on', () => {
  it('a local aggregation starts while a slow session of another group is still being reflected on', async () => {
    const log: string[] = [];
    const slow = 't007';
    const result = await learn({
      ...base,
      traces: traces(16),
      reflector: new TimedReflector((t) => (t.id === slow ? 150 : 1), log),
      aggregator: new LoggingAggregator(log),
      batchSize: 16,
      concurrency: 16,
      seed: 3,
    });
    const slowDone = log.indexOf(`reflected ${slow}`);
    const locals = log.map((line, at) => ({ line, at })).filter((e) => e.line.startsWith('local over'));
    const early = locals.filter((e) => e.at < slowDone);
    const waiting = locals.filter((e) => e.line.includes(slow));
    assert.ok(early.length > 0, log.join('\n'));
    assert.ok(
      early.every((e) => !e.line.includes(slow)),
      'no group holding the slow session is aggregated before it is in',
    );
    assert.ok(waiting.length > 0 && waiting.every((e) => e.at > slowDone));
    assert.equal(result.record.batches[0].k, 4);
    assert.equal(result.record.status, 'completed');
  });

  it('the same sessions and seed give the same tree, whichever reflections finish first', async () => {
    const run = (delayOf: (trace: Trace) => number) =>
      learn({
        ...base,
        traces: traces(20),
        reflector: new TimedReflector(delayOf, []),
        aggregator: new CountingAggregator(),
        batchSize: 20,
        concurrency: 20,
        seed: 6,
      });
    const number = (t: Trace) => Number(t.id.slice(1));
    const [forward, backward] = await Promise.all([run((t) => 1 + number(t) * 2), run((t) => 41 - number(t) * 2)]);
    assert.equal(clocklessRecord(forward.record), clocklessRecord(backward.record));
    const kinds = forward.record.nodes.map((n) => n.kind);
    assert.deepEqual(
      [...new Set(kinds)],
      ['trace', 'reflection', 'group', 'local', 'global', 'apply'],
      'sessions, reflections, groups, local deltas, then the levels above',
    );
  });

  it('a session whose reflection failed leaves its groups; the others are aggregated without it', async () => {
    const log: string[] = [];
    const reflector = new TimedReflector(() => 1, log);
    reflector.failOn.add('t002');
    const result = await learn({
      ...base,
      traces: traces(9),
      reflector,
      aggregator: new LoggingAggregator(log),
      batchSize: 9,
      seed: 2,
    });
    assert.ok(log.filter((l) => l.startsWith('local over')).every((l) => !l.includes('t002')));
    assert.ok(result.record.batches[0].groups.every((g) => !g.includes(2)));
    assert.deepEqual(
      result.failedTraces.map((f) => f.id),
      ['t002'],
    );
    assert.equal(result.learnedTraceIds.length, 8);
  });
});
