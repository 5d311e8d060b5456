import assert from 'node:assert/strict';
import { hedged, LatencyTracker } from '../../../src/core/llm/hedge';

/** An attempt that answers `value` after `ms`, or never (ms = Infinity); records its abort. */
function attempts(plan: Array<{ ms: number; value?: string; error?: string }>) {
  const aborted: boolean[] = [];
  let n = 0;
  const attempt = (signal: AbortSignal) => {
    const i = n++;
    const step = plan[Math.min(i, plan.length - 1)];
    aborted[i] = false;
    return new Promise<string>((resolve, reject) => {
      signal.addEventListener('abort', () => {
        aborted[i] = true;
        reject(new Error('aborted'));
      });
      if (Number.isFinite(step.ms))
        setTimeout(() => (step.error ? reject(new Error(step.error)) : resolve(step.value ?? `answer ${i}`)), step.ms);
    });
  };
  return { attempt, aborted, count: () => n };
}

describe('hedged requests', () => {
  it("a hung request gets a twin after the delay; the twin's answer wins and the hung one is aborted", async () => {
    const { attempt, aborted, count } = attempts([{ ms: Infinity }, { ms: 5 }]);
    let hedges = 0;
    assert.equal(await hedged(attempt, 20, undefined, () => hedges++), 'answer 1');
    assert.equal(count(), 2);
    assert.equal(hedges, 1);
    assert.deepEqual(aborted, [true, true]);
  });

  it('a twin that hangs too gets another, up to the number of copies', async () => {
    const { attempt, count } = attempts([{ ms: Infinity }, { ms: Infinity }, { ms: 5 }]);
    assert.equal(await hedged(attempt, 10), 'answer 2');
    assert.equal(count(), 3);
  });

  it('a fast answer sends no twin; a failure fails the call at once, for the caller to retry', async () => {
    const fast = attempts([{ ms: 1 }]);
    assert.equal(await hedged(fast.attempt, 50), 'answer 0');
    assert.equal(fast.count(), 1);
    const failing = attempts([{ ms: 1, error: '429' }]);
    await assert.rejects(hedged(failing.attempt, 50), /429/);
    assert.equal(failing.count(), 1);
  });

  it('a cancel aborts every attempt in flight', async () => {
    const { attempt, aborted } = attempts([{ ms: Infinity }]);
    const controller = new AbortController();
    const call = hedged(attempt, 1000, controller.signal);
    controller.abort(new Error('cancelled by the user'));
    await assert.rejects(call, /cancelled by the user/);
    assert.deepEqual(aborted, [true]);
  });

  it('the delay is a multiple of the median latency, never below the floor', () => {
    const tracker = new LatencyTracker();
    assert.equal(tracker.hedgeDelay({ floorMs: 100, multiple: 4 }), 400, 'no answers yet: floor × multiple');
    for (const ms of [10, 20, 30]) tracker.add(ms);
    assert.equal(tracker.hedgeDelay({ floorMs: 50, multiple: 4 }), 80);
    assert.equal(tracker.hedgeDelay({ floorMs: 500, multiple: 4 }), 500);
  });
});
