import assert from 'node:assert/strict';
import { chooseBatchSize, fitPowerLaw, profileSizes } from '../../../../src/core/learn/capacity/controller';

const close = (a: number, b: number, eps = 1e-6) =>
  assert.ok(Math.abs(a - b) <= eps * Math.max(1, Math.abs(b)), `${a} ≉ ${b}`);

describe('dynamic batch-size controller', () => {
  it('recovers A and α from an exact power law', () => {
    const fit = fitPowerLaw([1, 2, 4, 8, 16].map((b) => ({ b, T: 5000 * b ** -0.7 })));
    assert.ok(fit);
    close(fit.A, 5000);
    close(fit.alpha, 0.7);
    close(fit.r2, 1);
  });

  it('perfect parallelism (constant delay) gives α = 1, A = d·N and b* = bMin·62.5^(1/2)', () => {
    const N = 1000;
    const decision = chooseBatchSize(
      [4, 8, 16].map((b) => ({ batchSize: b, delayMs: 2000 })),
      N,
      { bMin: 4, bMax: 500 },
    );
    close(decision.fit!.alpha, 1);
    close(decision.fit!.A, 2000 * N);
    close(decision.unclamped!, 4 * Math.sqrt(62.5));
    assert.equal(decision.chosen, Math.round(4 * Math.sqrt(62.5)));
  });

  it('α = 0.5 gives b* = bMin·62.5^(2/3) (closed form with the peak slope at the smallest size)', () => {
    const decision = chooseBatchSize(
      [2, 4, 8, 16].map((b) => ({ batchSize: b, delayMs: (3000 * b ** -0.5 * b) / 500 })),
      500,
      { bMin: 2, bMax: 1000 },
    );
    close(decision.fit!.alpha, 0.5);
    close(decision.unclamped!, 2 * 62.5 ** (2 / 3), 1e-9);
  });

  it('matches the formula b* = (α·A/τ)^(1/(α+1)) with τ = 1.6 % of α·A·bMin^(−α−1)', () => {
    const decision = chooseBatchSize(
      [
        { batchSize: 5, delayMs: 1000 },
        { batchSize: 10, delayMs: 1300 },
        { batchSize: 20, delayMs: 1900 },
      ],
      400,
      { bMin: 5, bMax: 200 },
    );
    const { A, alpha } = decision.fit!;
    const tau = 0.016 * alpha * A * 5 ** (-alpha - 1);
    close(decision.tau!, tau);
    close(decision.unclamped!, ((alpha * A) / tau) ** (1 / (alpha + 1)));
  });

  it('clamps to the bounds and falls back sensibly on degenerate curves', () => {
    assert.equal(
      chooseBatchSize(
        [4, 8, 16].map((b) => ({ batchSize: b, delayMs: 100 })),
        1000,
        { bMin: 4, bMax: 20 },
      ).chosen,
      20,
    );
    const worse = chooseBatchSize(
      [4, 8, 16].map((b) => ({ batchSize: b, delayMs: 100 * b * b })),
      1000,
      { bMin: 4, bMax: 100 },
    );
    assert.equal(worse.chosen, 4);
    assert.match(worse.reason, /α ≤ 0/);
    assert.equal(chooseBatchSize([{ batchSize: 8, delayMs: 10 }], 100, { bMin: 2, bMax: 50 }).chosen, 8);
  });

  it('profiles doubling sizes using at most half of the traces', () => {
    assert.deepEqual(profileSizes(200, { bMin: 4, bMax: 100 }), [4, 8, 16, 32]);
    assert.deepEqual(profileSizes(40, { bMin: 4, bMax: 100 }), [4, 8]);
    assert.deepEqual(profileSizes(10, { bMin: 4, bMax: 100 }), [4]);
    assert.deepEqual(profileSizes(200, { bMin: 8, bMax: 16 }), [8, 16]);
  });
});
