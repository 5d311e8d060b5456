import assert from 'node:assert/strict';
import { instantModel, requestLoad, type Overload } from '../../../../bench/learn/simulation';
import {
  calibrationSizes,
  describeCalibration,
  planCalibration,
  runCalibration,
} from '../../../../src/core/learn/capacity/calibrate';
import { learnedCapacity } from '../../../../src/core/learn/capacity/capacityLearning';
import { LlmAggregator } from '../../../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../../../src/core/llm/openaiClient';
import { emptyPlaybook } from '../../../../src/core/playbook/markdown';
import { startModelServer, type ModelServer, type Responder } from '../../../../testing/modelServer';

describe('calibration of a model’s aggregation capacity', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const aggregatorFor = async (responder: Responder, bound: number) => {
    server = await startModelServer({ responder });
    const client = new OpenAiCompatibleClient({
      baseUrl: server.url,
      apiKey: 'k',
      model: 'sim',
      maxRetries: 1,
      backoffBaseMs: 1,
    });
    return new LlmAggregator(client, bound);
  };
  // the aggregator's own count, which a plan is built with: nothing is sent to this address
  const measuring = (bound: number) =>
    new LlmAggregator(new OpenAiCompatibleClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'x' }), bound);

  it('grows its calls from 1,000 tokens in half steps, never past the upper bound nor past what one answer holds', () => {
    assert.deepEqual(calibrationSizes(16_000), [1_000, 1_500, 2_000, 3_000, 4_000, 6_000, 8_000, 12_000, 16_000]);
    assert.deepEqual(calibrationSizes(10_000), [1_000, 1_500, 2_000, 3_000, 4_000, 6_000, 8_000, 10_000]);
    assert.deepEqual(calibrationSizes(2_400), [1_000, 1_500, 2_400]);
    assert.deepEqual(calibrationSizes(1_000), [1_000]);
    for (const bound of [1_000, 5_000, 12_000, 16_000, 40_000]) {
      const plan = planCalibration({ capacity: measuring(bound).capacity, upperBoundTokens: bound, seed: 3 });
      const loads = plan.calls.map((c) => c.tokens);
      assert.ok(
        loads.every((load, i) => i === 0 || load > loads[i - 1]),
        `${bound}: ${loads.join(', ')}`,
      );
      const { answer } = measuring(bound).capacity;
      for (const call of plan.calls) {
        assert.ok(call.tokens <= Math.min(bound, call.targetTokens), `${call.tokens} within ${call.targetTokens}`);
        // filled to its size within a few items, or to what one answer holds (the last call then)
        if (call === plan.calls.at(-1) && plan.answerBoundTokens !== undefined)
          assert.equal(call.tokens, plan.answerBoundTokens);
        else assert.ok(call.tokens >= call.targetTokens * 0.9, `${call.tokens} fills ${call.targetTokens}`);
        assert.ok(answer!.estimate(call.input) <= answer!.limitTokens, 'its answer fits');
        assert.equal(call.tokens, measuring(bound).capacity.measure(call.input, emptyPlaybook()));
      }
      if (bound >= 12_000) assert.ok(plan.answerBoundTokens! < bound, 'distinct lessons past one answer are not sent');
    }
  });

  it('gives every call distinct lessons of several ecosystems, from distinct synthetic sessions, the same for a seed', () => {
    const plan = planCalibration({ capacity: measuring(32_000).capacity, upperBoundTokens: 32_000, seed: 7 });
    const lessons = plan.calls.flatMap((c) => c.input.reflections.flatMap((r) => r.lessons));
    assert.equal(lessons.length, plan.estimate.items);
    assert.equal(new Set(lessons.map((l) => l.content)).size, lessons.length, 'no lesson repeats another');
    assert.equal(new Set(lessons.map((l) => l.evidence.traceId)).size, lessons.length, 'one session per lesson');
    for (const tool of ['pnpm', 'npm', 'tsc', 'uv run', 'pip', 'cargo', 'go test', 'make'])
      assert.ok(
        lessons.some((l) => l.content.includes(`\`${tool} `) || l.content.includes(`${tool} -p`)),
        tool,
      );
    const again = planCalibration({ capacity: measuring(32_000).capacity, upperBoundTokens: 32_000, seed: 7 });
    assert.deepEqual(again, plan);
    const other = planCalibration({ capacity: measuring(32_000).capacity, upperBoundTokens: 32_000, seed: 8 });
    assert.notDeepEqual(other.calls[0].input, plan.calls[0].input);
  });

  it('estimates what it sends: one request per call, the tokens counted as the server receives them, priced', async () => {
    const aggregator = await aggregatorFor(instantModel({ capacityTokens: 100_000, gamma: 1 }), 16_000);
    const plan = planCalibration({
      capacity: aggregator.capacity,
      upperBoundTokens: 16_000,
      prices: { input: 2, output: 8 },
    });
    const result = await runCalibration(plan, aggregator);
    assert.equal(server!.requests.length, plan.estimate.calls);
    assert.equal(
      server!.requests.reduce((sum, r) => sum + requestLoad(r), 0),
      plan.estimate.inputTokens,
    );
    assert.deepEqual(
      server!.requests.map(requestLoad),
      plan.calls.map((c) => c.tokens),
    );
    assert.equal(plan.estimate.costUsd, (plan.estimate.inputTokens * 2 + plan.estimate.outputTokens * 8) / 1e6);
    // nothing dropped below the capacity: nothing to learn, the setting stands
    assert.ok(result.observations.every((o) => o.dropped === 0));
    assert.equal(result.learnedTokens, undefined);
    assert.equal(result.largestAnsweredTokens, plan.calls.at(-1)!.tokens);
    assert.match(describeCalibration(result), /^No overload seen up to [\d,]+ tokens/);
  });

  for (const overload of [
    { capacityTokens: 1_500, gamma: 0.7 },
    { capacityTokens: 2_500, gamma: 1.5 },
    { capacityTokens: 1_200, gamma: 0.5 },
  ] satisfies Overload[]) {
    it(`sees a model that overloads at ${overload.capacityTokens} tokens (decay ${overload.gamma}) drop above it, not below`, async () => {
      const bound = 32_000;
      const aggregator = await aggregatorFor(instantModel(overload), bound);
      const plan = planCalibration({ capacity: aggregator.capacity, upperBoundTokens: bound, seed: 11 });
      const progress: number[] = [];
      const result = await runCalibration(plan, aggregator, undefined, (_m, fraction) => progress.push(fraction));
      assert.equal(result.observations.length, plan.calls.length);
      assert.equal(result.failedCalls, 0);
      for (const o of result.observations) {
        if (o.load <= overload.capacityTokens) assert.equal(o.dropped, 0, `${o.load} tokens`);
        // just past the capacity a call of a few dozen items may keep them all by chance; well past it, never
        else if (o.load >= overload.capacityTokens * 1.3) assert.ok(o.dropped > 0, `${o.load} tokens drops`);
      }
      for (const call of result.calls) {
        const answer = call.answer!;
        assert.equal(answer.kept + answer.merged + answer.rejected + answer.dropped, call.items);
      }
      const learned = result.learnedTokens!;
      assert.equal(learned, learnedCapacity(result.observations));
      assert.ok(
        learned >= overload.capacityTokens / 1.5 && learned <= overload.capacityTokens * 1.5,
        `learned ${learned} for ${overload.capacityTokens}`,
      );
      assert.match(describeCalibration(result), /^Effective capacity: about [\d,]+ tokens/);
      assert.deepEqual(progress, [...plan.calls.map((_c, i) => i / plan.calls.length), 1]);
      // the same seed and the same answers: the same result
      const again = await runCalibration(plan, aggregator);
      assert.deepEqual(again, result);
    });
  }

  it('counts a call the server fails as a warning and still sends the others', async () => {
    const model = instantModel({ capacityTokens: 5_000, gamma: 0.7 });
    const plan = planCalibration({ capacity: measuring(16_000).capacity, upperBoundTokens: 16_000 });
    const failing = plan.calls[1].tokens;
    const aggregator = await aggregatorFor(
      (request, index) => (requestLoad(request) === failing ? { status: 500 } : model(request, index)),
      16_000,
    );
    const result = await runCalibration(plan, aggregator);
    assert.equal(result.failedCalls, 1);
    assert.equal(result.calls.length, plan.calls.length);
    assert.ok(result.calls[1].failed);
    assert.equal(result.calls[1].answer, undefined);
    assert.ok(
      result.warnings.some((w) => /call failed: .*500/.test(w)),
      result.warnings.join('\n'),
    );
    assert.deepEqual(
      result.observations.map((o) => o.load),
      plan.calls.filter((_c, i) => i !== 1).map((c) => c.tokens),
    );
    assert.match(describeCalibration(result), /1 call\(s\) failed/);
  });

  it('stops at a cancel and keeps what the calls before it showed', async () => {
    const controller = new AbortController();
    const model = instantModel({ capacityTokens: 5_000, gamma: 0.7 });
    const aggregator = await aggregatorFor((request, index) => {
      if (index === 1) controller.abort(); // the second call is under way when the user cancels
      return model(request, index);
    }, 16_000);
    const plan = planCalibration({ capacity: aggregator.capacity, upperBoundTokens: 16_000 });
    const result = await runCalibration(plan, aggregator, controller.signal);
    assert.equal(result.cancelled, true);
    assert.equal(result.observations.length, 1);
    assert.equal(result.failedCalls, 0);
    assert.ok(server!.requests.length <= 2);
    assert.match(describeCalibration(result), /Cancelled/);
  });
});
