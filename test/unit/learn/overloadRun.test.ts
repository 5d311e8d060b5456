import assert from 'node:assert/strict';
import { learningCorpus, plantedLessons } from '../../../bench/learn/corpus';
import { instantModel } from '../../../bench/learn/simulation';
import { describeDrops, dropSummary } from '../../../src/core/learn/record/callItems';
import type { LoadObservation } from '../../../src/core/learn/capacity/capacityLearning';
import { learn, type Strategy } from '../../../src/core/learn/run';
import { LlmAggregator, LlmReflector } from '../../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../../src/core/llm/openaiClient';
import { emptyPlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { startModelServer, type ChatRequest, type ModelServer, type Responder } from '../../../testing/modelServer';

const lessons = plantedLessons(60);
const traces = learningCorpus(120, lessons, 2, 5);
/** The simulated model keeps everything up to this many tokens; the aggregator is told the default 16,000. */
const HIDDEN_CAPACITY = 1_500;

describe('overload: every aggregation call checked for what it dropped, and what overload dropped sent again', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function run(
    responder: Responder,
    strategy: Strategy,
    capacityObservations?: LoadObservation[],
  ): Promise<Awaited<ReturnType<typeof learn>> & { kept: number; text: string }> {
    server ??= await startModelServer({ responder });
    const client = new OpenAiCompatibleClient({ baseUrl: server.url, apiKey: 'k', model: 'sim', concurrency: 8 });
    const result = await learn({
      traces,
      playbook: emptyPlaybook(),
      reflector: new LlmReflector(client),
      aggregator: new LlmAggregator(client),
      provider: client.info,
      workspace: '/bench/repo',
      strategy,
      batchSize: traces.length,
      seed: 9,
      capacityObservations,
    });
    const text = serializePlaybook(result.playbook);
    return { ...result, text, kept: lessons.filter((l) => text.includes(`${l.id}:`)).length };
  }

  it('combee keeps every lesson the overloaded calls dropped, and the record shows each drop and its redo', async () => {
    const result = await run(instantModel({ capacityTokens: HIDDEN_CAPACITY, gamma: 0.7 }), 'combee');
    assert.equal(result.kept, lessons.length);
    const calls = result.record.nodes.filter((n) => n.items);
    const dropping = calls.filter((n) => (n.items?.dropped ?? 0) > 0);
    assert.ok(dropping.length > 0, 'calls past the hidden capacity dropped items');
    const ids = new Set(result.record.nodes.map((n) => n.id));
    for (const node of dropping) {
      const items = node.items!;
      assert.equal(items.in, items.kept + items.merged + items.rejected + items.dropped, node.id);
      assert.equal(items.droppedItems?.length, Math.min(40, items.dropped), `${node.id} lists what it dropped`);
      if (items.overloaded) {
        const redo = result.record.nodes.filter((n) => n.items?.redoOf === node.id);
        assert.equal(redo.length, items.redone, `${node.id}: its redo calls are in the tree`);
        for (const r of redo) assert.deepEqual(r.parents, [node.id]);
      }
    }
    for (const node of calls) if (node.items?.redoOf) assert.ok(ids.has(node.items.redoOf));
    const summary = dropSummary(result.record.nodes);
    assert.ok(summary.redoCalls > 0);
    assert.match(describeDrops(summary) ?? '', /dropped \d+ item\(s\) without a reason: \d+ sent again/);
  });

  it('naive aggregation at the same size loses lessons, and its record says how many its call dropped', async () => {
    const result = await run(instantModel({ capacityTokens: HIDDEN_CAPACITY, gamma: 0.7 }), 'naive');
    assert.ok(result.kept < lessons.length, `naive kept ${result.kept}`);
    const [single] = result.record.nodes.filter((n) => n.kind === 'single');
    assert.ok((single.items?.dropped ?? 0) > 0);
    assert.equal(single.items?.overloaded, undefined, 'the baseline is not redone');
    assert.equal(dropSummary(result.record.nodes).lost, single.items?.dropped);
  });

  it('the capacity a run learned plans the next run within it, and replays to the same plan and playbook', async () => {
    const responder = instantModel({ capacityTokens: HIDDEN_CAPACITY, gamma: 0.7 });
    const first = await run(responder, 'combee');
    assert.ok(first.capacityObservations.length > 0);
    const again = await run(responder, 'combee', first.capacityObservations);
    const replay = await run(responder, 'combee', first.capacityObservations);
    const plan = again.record.batches[0].plan!;
    assert.ok(plan.budgetTokens! < 16_000 && plan.learnedTokens !== undefined, JSON.stringify(plan));
    for (const node of again.record.nodes.filter((n) => n.kind === 'local' && !n.items?.redoOf))
      assert.ok(node.items!.loadTokens! <= plan.budgetTokens!, `${node.id} fits the learned capacity`);
    const planned = (r: typeof again) => r.record.batches.map(({ wallMs: _wall, ...batch }) => batch);
    assert.deepEqual(planned(replay), planned(again));
    assert.equal(replay.text, again.text);
    assert.deepEqual(replay.capacityObservations, again.capacityObservations, 'the profile grows the same way');
    assert.equal(again.kept, lessons.length);
    assert.ok(
      dropSummary(again.record.nodes).dropped < dropSummary(first.record.nodes).dropped,
      'planned to the capacity, fewer calls drop',
    );
  });

  it('an operation from several sessions that the model drops at every size is carried on in code, never lost', async () => {
    const overloaded = instantModel({ capacityTokens: 100_000, gamma: 0.7 });
    // a model that never merges LESSON-007's operation at the higher levels, whatever their size: judgment, not load
    const stubborn = (request: ChatRequest, index: number) => {
      const reply = overloaded(request, index);
      const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
      if (!user.includes('Proposed operations:')) return reply;
      const answer = JSON.parse(reply.content ?? '{}') as { operations: Array<{ content: string }> };
      answer.operations = answer.operations.filter((op) => !op.content.startsWith('LESSON-007:'));
      return { ...reply, content: JSON.stringify(answer) };
    };
    const result = await run(stubborn, 'combee');
    assert.ok(result.text.includes('LESSON-007:'), 'carried to the playbook');
    const carried = result.record.nodes.filter((n) => (n.items?.carried ?? 0) > 0);
    assert.ok(carried.length > 0);
    const redoDepths = result.record.nodes.filter((n) => n.items?.redoOf).map((n) => n.id.split('.r').length - 1);
    assert.ok(Math.max(0, ...redoDepths) <= 3, 'sent again at most three times');
  });
});
