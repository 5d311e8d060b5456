import assert from 'node:assert/strict';
import { groupCount, planScan, sliceGroups } from '../../../src/core/learn/scan';
import { seededRandom, shuffled } from '../../../src/core/learn/random';

describe('parallel scan plan', () => {
  it('uses k = max(1, ⌊√n⌋) groups', () => {
    const expected: Array<[number, number]> = [
      [1, 1],
      [3, 1],
      [4, 2],
      [8, 2],
      [9, 3],
      [15, 3],
      [16, 4],
      [40, 6],
      [99, 9],
      [100, 10],
      [200, 14],
      [1000, 31],
    ];
    for (const [n, k] of expected) assert.equal(groupCount(n), k, `n=${n}`);
  });

  it('cuts contiguous near-equal slices, the first (total mod k) one larger (n=40, p=2 → 14,14,13,13,13,13)', () => {
    const plan = planScan(
      Array.from({ length: 40 }, (_, i) => i),
      2,
      7,
    );
    assert.equal(plan.mode, 'parallel_scan');
    assert.equal(plan.k, 6);
    assert.deepEqual(
      plan.groups.map((g) => g.length),
      [14, 14, 13, 13, 13, 13],
    );
  });

  it('puts every reflection in exactly p slots, for many n and p', () => {
    for (let n = 4; n <= 120; n += 7) {
      for (const p of [1, 2, 3]) {
        const plan = planScan(
          Array.from({ length: n }, (_, i) => i),
          p,
          n * 31 + p,
        );
        const counts = new Array(n).fill(0);
        for (const group of plan.groups) for (const i of group) counts[i]++;
        assert.ok(
          counts.every((c) => c === p),
          `n=${n} p=${p}`,
        );
        const sizes = plan.groups.map((g) => g.length);
        assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `near-equal groups for n=${n}`);
        assert.equal(plan.groups.length, groupCount(n));
      }
    }
  });

  it('is replayable from its seed and differs across seeds', () => {
    const items = Array.from({ length: 30 }, (_, i) => i);
    assert.deepEqual(planScan(items, 2, 123).groups, planScan(items, 2, 123).groups);
    assert.notDeepEqual(planScan(items, 2, 123).groups, planScan(items, 2, 124).groups);
  });

  it('falls back to one ordinary call below 4 reflections, without duplication', () => {
    for (const n of [1, 2, 3]) {
      const plan = planScan(
        Array.from({ length: n }, (_, i) => i),
        2,
        1,
      );
      assert.equal(plan.mode, 'single_call');
      assert.deepEqual(plan.groups, [Array.from({ length: n }, (_, i) => i)]);
    }
  });

  it('shuffles with Fisher–Yates without losing or inventing items', () => {
    const out = shuffled([1, 2, 3, 4, 5, 6, 7, 8], seededRandom(5));
    assert.deepEqual([...out].sort(), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(sliceGroups([1, 2, 3, 4, 5], 2), [
      [1, 2, 3],
      [4, 5],
    ]);
  });
});
