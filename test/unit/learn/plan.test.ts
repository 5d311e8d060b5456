import assert from 'node:assert/strict';
import type { AggregationCapacity } from '../../../src/core/learn/types';
import { mergeSameLessons } from '../../../src/core/learn/mergeOps';
import { RunRecord } from '../../../src/core/learn/record/record';
import { learn } from '../../../src/core/learn/run';
import { renderRunTree } from '../../../src/core/learn/record/treeText';
import type { AggregationInput, Aggregator, RoleResult } from '../../../src/core/learn/types';
import { LlmAggregator } from '../../../src/core/llm/llmRoles';
import { localAggregationPrompt } from '../../../src/core/llm/prompts';
import type { Delta, DeltaOp } from '../../../src/core/playbook/delta';
import { bullets, type Playbook } from '../../../src/core/playbook/model';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { countTokens } from '../../../src/core/util/tokens';
import {
  CountingAggregator,
  learnBase as base,
  numberedTraces as traces,
  ScriptedReflector,
} from '../../support/learnRoles';

/** The offline aggregator behind a made-up limit: a call weighs 50 plus the characters of what it must merge. */
class LimitedAggregator implements Aggregator {
  readonly inner = new CountingAggregator();
  readonly measured: Array<{ level: string; tokens: number }> = [];
  readonly capacity: AggregationCapacity;
  constructor(budgetTokens: number) {
    this.capacity = { budgetTokens, measure: (input) => weigh(input) };
  }
  async aggregate(input: AggregationInput, playbook: Playbook, signal?: AbortSignal): Promise<RoleResult<Delta>> {
    this.measured.push({ level: input.level, tokens: weigh(input) });
    return this.inner.aggregate(input, playbook, signal);
  }
}

function weigh(input: AggregationInput): number {
  const lessons = input.reflections.flatMap((r) => r.lessons.map((l) => l.content.length));
  const ops = input.deltas.flatMap((d) => d.ops.map((op) => (op.op === 'REMOVE' ? op.reason : op.content).length));
  return 50 + [...lessons, ...ops].reduce((a, b) => a + b, 0);
}

/** One batch of n numbered sessions learned through a `LimitedAggregator` of this budget. */
async function learnWithin(budgetTokens: number, n: number, options: { seed?: number; plan?: 'sqrt' } = {}) {
  const aggregator = new LimitedAggregator(budgetTokens);
  const result = await learn({
    ...base,
    traces: traces(n),
    reflector: new ScriptedReflector(),
    aggregator,
    batchSize: n,
    ...options,
  });
  return { aggregator, result, batch: result.record.batches[0] };
}

function assertEveryCallFits(aggregator: LimitedAggregator): void {
  const budget = aggregator.capacity.budgetTokens;
  for (const call of aggregator.measured) assert.ok(call.tokens <= budget, `${call.level} call of ${call.tokens}`);
}

const add = (content: string, traceId: string, extra: Partial<DeltaOp> = {}): DeltaOp =>
  ({ op: 'ADD', section: 'Workflow', content, support: [{ traceId, steps: [0] }], ...extra }) as DeltaOp;

describe('capacity-aware aggregation plan', () => {
  it('merges the operations that are the same lesson into their first occurrence, support unioned', () => {
    const deltas = [
      { nodeId: 'a', delta: { ops: [add('Run `pnpm db:generate` first.', 't1'), add('Use TZ=UTC.', 't2')], tags: [] } },
      {
        nodeId: 'b',
        delta: {
          ops: [
            add('run  `pnpm db:generate` first', 't3'),
            add('Use TZ=UTC.', 't2'),
            add('Use TZ=UTC.', 't4', { scope: 'packages/api' }),
            add('Mock the clock with `vi.useFakeTimers()` in the orders tests', 't5'),
          ],
          tags: [{ id: 'r-1', tag: 'helpful' as const }],
        },
      },
      {
        nodeId: 'c',
        delta: {
          ops: [
            add('Mock the clock with `vi.useFakeTimers()` in the orders tests.', 't6'),
            { op: 'REMOVE', id: 'r-9', reason: 'wrong', support: [{ traceId: 't7', steps: [1] }] } as DeltaOp,
            { op: 'REMOVE', id: 'r-9', reason: 'stale', support: [{ traceId: 't8', steps: [2] }] } as DeltaOp,
          ],
          tags: [],
        },
      },
    ];
    const result = mergeSameLessons(deltas);
    assert.equal(result.merged, 4);
    assert.deepEqual(
      result.deltas.map((d) => d.nodeId),
      ['a', 'b', 'c'],
    );
    const [a, b, c] = result.deltas.map((d) => d.delta);
    assert.deepEqual(
      a.ops.map((op) => [op.op === 'REMOVE' ? op.reason : op.content, op.support.map((s) => s.traceId)]),
      [
        ['Run `pnpm db:generate` first.', ['t1', 't3']],
        ['Use TZ=UTC.', ['t2']],
      ],
    );
    // another scope is another rule; a near-identical wording is the same one
    assert.deepEqual(
      b.ops.map((op) => [op.op === 'ADD' ? op.scope : undefined, op.support.map((s) => s.traceId)]),
      [
        ['packages/api', ['t4']],
        [undefined, ['t5', 't6']],
      ],
    );
    assert.deepEqual(b.tags, [{ id: 'r-1', tag: 'helpful' }]);
    assert.deepEqual(
      c.ops.map((op) => [op.op, op.support.map((s) => s.traceId)]),
      [['REMOVE', ['t7', 't8']]],
    );
    assert.deepEqual(mergeSameLessons(deltas), result, 'deterministic');
  });

  it('keeps distinct lessons apart, however alike their wording', () => {
    const deltas = [
      {
        nodeId: 'a',
        delta: { ops: [add('When touching the cart service, run `pnpm db:generate` first.', 't1')], tags: [] },
      },
      {
        nodeId: 'b',
        delta: { ops: [add('When touching the email worker, run `pnpm db:generate` first.', 't2')], tags: [] },
      },
    ];
    assert.equal(mergeSameLessons(deltas).merged, 0);
  });

  it('keeps k = ⌊√n⌋ when every local call fits, and says so in the batch record', async () => {
    const { result, batch } = await learnWithin(100_000, 40, { seed: 9 });
    assert.equal(batch.k, 6);
    assert.equal(batch.plan?.kind, 'capacity');
    assert.equal(batch.plan?.budgetTokens, 100_000);
    assert.match(batch.plan?.reason ?? '', /k = ⌊√n⌋ = 6: every local call fits 100000 tokens/);
    assert.equal(bullets(result.playbook).length, 40);
    assert.doesNotThrow(() => RunRecord.parse(JSON.parse(JSON.stringify(result.record))));
  });

  it('cuts level 1 into more, smaller groups until every call fits the capacity, and loses nothing', async () => {
    const { aggregator, result, batch } = await learnWithin(300, 100, { seed: 4 });
    assert.ok(batch.k > 10, `k = ${batch.k}`);
    assert.match(
      batch.plan?.reason ?? '',
      new RegExp(`k = ${batch.k} local calls for ⌊√n⌋ = 10 groups: \\d+ group\\(s\\) split`),
    );
    assertEveryCallFits(aggregator);
    assert.ok((batch.plan?.largestCallTokens ?? 0) <= 300);
    assert.match(
      renderRunTree(result.record),
      new RegExp(
        `plan: capacity-aware, every call ≤ 300 tokens \\(largest \\d+\\): k = ${batch.k} local calls for ⌊√n⌋ = 10`,
      ),
    );
    assert.equal(batch.groups.flat().length, 200, 'every reflection twice (p = 2)');
    assert.equal(bullets(result.playbook).length, 100);
  });

  it('merges the duplicated reflections in code before the global level: each lesson reaches it once', async () => {
    const { aggregator, result } = await learnWithin(100_000, 40, { seed: 9 });
    const globals = result.record.nodes.filter((n) => n.kind === 'global');
    assert.equal(globals.length, 1);
    const locals = result.record.nodes.filter((n) => n.kind === 'local');
    const localOps = locals.reduce((sum, n) => sum + ((n.detail as Delta | undefined)?.ops.length ?? 0), 0);
    // p = 2: each lesson in two groups, or twice in one (the local call merges those)
    const groups = result.record.batches[0].groups;
    const twiceInOne = groups.reduce((n, g) => n + (g.length - new Set(g).size), 0);
    assert.equal(localOps, 80 - twiceInOne);
    assert.equal(result.record.batches[0].plan?.mergedInCode, localOps - 40);
    const globalInput = aggregator.measured.find((m) => m.level === 'global');
    assert.equal(globalInput?.tokens, 50 + 40 * 'lesson from t000'.length);
  });

  it('packs the deltas of a higher level into as few calls as fit, adding levels until one is left', async () => {
    // a local call of 10 reflections weighs 210, the 100 lessons 1,650: level 2 needs several calls
    const { aggregator, result, batch } = await learnWithin(700, 100, { seed: 5 });
    assert.ok(batch.levels >= 3, `levels ${batch.levels}`);
    assertEveryCallFits(aggregator);
    assert.equal(bullets(result.playbook).length, 100);
    assert.equal(batch.mode, 'parallel_scan');
  });

  it('when no two deltas fit one call, the batch delta is their union, merged in code, with no call', async () => {
    // groups of 2 reflections fit (50 + 2 × 16 = 82); two deltas of distinct lessons never do
    const { aggregator, result } = await learnWithin(90, 16, { seed: 2 });
    const final = result.record.nodes.find((n) => n.id === 'b0:global');
    assert.match(final?.label ?? '', /merged in code: 16 op\(s\) \(no call fits them together\)/);
    assert.equal(final?.inputTokens, undefined, 'no model call');
    assertEveryCallFits(aggregator);
    assert.equal(bullets(result.playbook).length, 16);
    assert.equal(result.record.batches[0].mode, 'parallel_scan');
  });

  it('the √n plan, when asked for, is Combee as published: k = ⌊√n⌋, nothing merged in code', async () => {
    const { batch } = await learnWithin(300, 100, { plan: 'sqrt' });
    assert.equal(batch.k, 10);
    assert.deepEqual(batch.plan, { kind: 'sqrt', reason: 'the √n plan was asked for', mergedInCode: 0 });
  });

  it('the same sessions and seed give the same plan', async () => {
    const [a, b] = await Promise.all([learnWithin(400, 60, { seed: 8 }), learnWithin(400, 60, { seed: 8 })]);
    assert.deepEqual(a.batch.groups, b.batch.groups);
    assert.deepEqual(a.batch.plan, b.batch.plan);
  });

  it("a model's aggregator measures the prompt it sends with the tokenizer", () => {
    const aggregator = new LlmAggregator({} as never, 12_000);
    const input: AggregationInput = {
      level: 'local',
      reflections: [
        {
          traceId: 't1',
          lessons: [
            {
              section: 'Pitfalls',
              content: 'Run `pnpm db:generate` after editing the schema.',
              kind: 'pitfall',
              evidence: { traceId: 't1', steps: [3] },
            },
          ],
          tags: [],
        },
      ],
      deltas: [],
    };
    const sent = localAggregationPrompt(
      [{ label: 'L1', text: '[pitfall, Pitfalls] Run `pnpm db:generate` after editing the schema.', sessions: 1 }],
      emptyPlaybook(),
    );
    assert.equal(aggregator.capacity.budgetTokens, 12_000);
    assert.equal(
      aggregator.capacity.measure(input, emptyPlaybook()),
      sent.reduce((sum, m) => sum + countTokens(m.content), 0),
    );
  });
});
