import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import {
  CapacityTracker,
  judgmentShare,
  learnedCapacity,
  plannedCapacity,
  type LoadObservation,
} from '../../../../src/core/learn/capacity/capacityLearning';
import { CapacityProfiles, PROFILE_CALLS } from '../../../../src/core/learn/capacity/capacityProfiles';
import { seededRandom } from '../../../../src/core/learn/random';
import { tempDir } from '../../../../testing/tmp';

const call = (load: number, items: number, dropped: number, redo = false): LoadObservation => ({
  load,
  items,
  dropped,
  ...(redo ? { redo } : {}),
});

/** Calls of a model that keeps all up to `capacity` and loses a share growing with the load above it. */
function modelCalls(capacity: number, judgment: number, seed: number): LoadObservation[] {
  const random = seededRandom(seed);
  return Array.from({ length: 60 }, () => {
    const load = Math.round(1_000 + random() * 15_000);
    const items = Math.max(5, Math.round(load / 100));
    const overload = Math.max(0, 1 - (capacity / load) ** 0.7);
    return call(load, items, Math.round(items * Math.min(1, judgment + overload)));
  });
}

describe('capacity learning: the capacity a model showed, from its recorded calls', () => {
  it('says nothing before a call was overloaded: the setting stands', () => {
    assert.equal(learnedCapacity([call(3_000, 30, 0), call(9_000, 90, 0)]), undefined);
    assert.deepEqual(new CapacityTracker(16_000, [call(3_000, 30, 0)]).knowledge(), { budgetTokens: 16_000 });
  });

  it('is the largest load a call kept everything at, below where calls start to drop', () => {
    const calls = [
      call(2_000, 20, 0),
      call(4_000, 40, 0),
      call(5_800, 58, 0),
      call(6_500, 65, 10),
      call(14_000, 140, 60),
    ];
    assert.equal(learnedCapacity(calls), 5_800);
  });

  it('with a gap below the smallest overloaded call, reads the capacity from what that call kept', () => {
    // kept 90 % at 10,000 tokens: a decay no gentler than a square root puts the capacity at 8,100 or above
    assert.equal(learnedCapacity([call(1_500, 15, 0), call(10_000, 100, 10)]), 8_100);
  });

  it('lies near the true capacity of a model, whatever order its calls come in', () => {
    for (const capacity of [3_000, 5_000, 8_000]) {
      const calls = modelCalls(capacity, 0, capacity);
      const learned = learnedCapacity(calls) as number;
      assert.ok(learned >= capacity * 0.6 && learned <= capacity * 1.15, `${capacity}: learned ${learned}`);
      const shuffled = [...calls].reverse();
      assert.equal(learnedCapacity(shuffled), learned);
    }
  });

  it('a model that drops a share at every size shows judgment, and its capacity is not mistaken for tiny', () => {
    const calls = modelCalls(6_000, 0.1, 3);
    const judgment = judgmentShare(calls) as number;
    assert.ok(judgment > 0.05 && judgment < 0.15, String(judgment));
    const learned = learnedCapacity(calls) as number;
    assert.ok(learned >= 3_500, String(learned));
  });

  it('judgment needs calls of two sizes, and ignores redo calls (their items were the ones passed over)', () => {
    assert.equal(judgmentShare([call(14_000, 100, 45), call(14_500, 100, 44)]), undefined);
    assert.equal(judgmentShare([call(2_000, 40, 0), call(14_000, 100, 45), call(1_200, 40, 40, true)]), 0);
  });

  it('an overloaded redo call says nothing; one that kept everything says its load was within capacity', () => {
    const base = [call(14_000, 140, 60)];
    assert.equal(learnedCapacity([...base, call(6_000, 30, 0, true)]), 6_000);
    assert.equal(learnedCapacity([...base, call(6_000, 30, 0, true), call(7_000, 30, 20, true)]), 6_000);
  });

  it('probes a wide gap between what calls kept and where they overloaded, halving it batch by batch', () => {
    // shown 4,000 (9,000 kept two thirds: at least 4,000), overloaded from 9,000: the next calls go to 6,000
    const calls = [call(2_000, 30, 0), call(9_000, 90, 30)];
    assert.equal(plannedCapacity(calls), 6_000);
    // those kept everything: the gap is 6,000 – 9,000, probed at 7,348
    assert.equal(plannedCapacity([...calls, call(6_000, 60, 0)]), 7_348);
    // they overloaded, keeping 85 % (so at least 4,335 holds): 4,335 – 6,000, probed at 5,100
    assert.equal(plannedCapacity([...calls, call(6_000, 60, 9)]), 5_100);
    // a narrow gap is not probed
    assert.equal(
      plannedCapacity([call(5_000, 50, 0), call(5_500, 55, 5)]),
      learnedCapacity([call(5_000, 50, 0), call(5_500, 55, 5)]),
    );
  });

  it('the tracker plans within the setting, which stays the upper bound', () => {
    const overloaded = [call(2_000, 30, 0), call(9_000, 90, 30)];
    const knowledge = new CapacityTracker(16_000, overloaded).knowledge();
    assert.equal(knowledge.budgetTokens, 6_000);
    assert.equal(knowledge.learnedTokens, 4_000);
    assert.equal(new CapacityTracker(3_000, overloaded).knowledge().budgetTokens, 3_000);
    assert.equal(new CapacityTracker(undefined, overloaded).knowledge().budgetTokens, undefined);
  });

  it('a profile keeps the latest calls per model and survives a damaged file', async () => {
    const dir = tempDir('capacity-profiles');
    const profiles = new CapacityProfiles(dir);
    assert.deepEqual(await profiles.load('openai', 'm'), []);
    await profiles.append('openai', 'm', [call(1_000, 10, 0)]);
    await profiles.append(
      'openai',
      'm',
      Array.from({ length: PROFILE_CALLS }, (_, i) => call(2_000 + i, 10, 0)),
    );
    const kept = await profiles.load('openai', 'm');
    assert.equal(kept.length, PROFILE_CALLS);
    assert.equal(kept[0].load, 2_000, 'the oldest call went first');
    assert.deepEqual(await profiles.load('openai', 'other'), []);
    await profiles.clear('openai', 'm');
    assert.deepEqual(await profiles.load('openai', 'm'), []);
    await writeFile(profiles.file, '{ not json');
    assert.deepEqual(await profiles.load('openai', 'm'), []);
  });
});
