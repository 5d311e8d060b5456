/**
 * Combee's dynamic batch-size controller (paper §3.3; no public implementation existed): profile a few batch sizes,
 * turn each batch's delay into an epoch time T(b) = d(b)·N/b, fit T = A·b^(−α) by least squares in log space, and
 * stop where the marginal gain α·A·b^(−α−1) falls to τ = 1.6 % of the steepest slope (at the smallest size):
 * b* = (α·A/τ)^(1/(α+1)), clamped to [bMin, bMax].
 */
export interface Measurement {
  batchSize: number;
  /** Wall time of one batch of that size, in ms. */
  delayMs: number;
}

export interface PowerLawFit {
  A: number;
  alpha: number;
  /** Goodness of fit in log space. */
  r2: number;
}

export interface ControllerDecision {
  measurements: Array<Measurement & { epochMs: number }>;
  fit?: PowerLawFit;
  /** τ as an absolute slope (ms per unit of batch size). */
  tau?: number;
  unclamped?: number;
  chosen: number;
  reason: string;
}

export const TAU_FRACTION = 0.016;

export function fitPowerLaw(points: Array<{ b: number; T: number }>): PowerLawFit | undefined {
  const usable = points.filter((p) => p.b > 0 && p.T > 0);
  if (new Set(usable.map((p) => p.b)).size < 2) return undefined;
  const xs = usable.map((p) => Math.log(p.b));
  const ys = usable.map((p) => Math.log(p.T));
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { A: Math.exp(intercept), alpha: -slope, r2 };
}

export function chooseBatchSize(
  measurements: Measurement[],
  totalTraces: number,
  bounds: { bMin: number; bMax: number },
  tauFraction = TAU_FRACTION,
): ControllerDecision {
  const withEpoch = measurements.map((m) => ({ ...m, epochMs: (m.delayMs * totalTraces) / m.batchSize }));
  const fit = fitPowerLaw(withEpoch.map((m) => ({ b: m.batchSize, T: m.epochMs })));
  const clamp = (b: number) => Math.max(bounds.bMin, Math.min(bounds.bMax, Math.round(b)));
  if (!fit)
    return {
      measurements: withEpoch,
      chosen: clamp(Math.max(...measurements.map((m) => m.batchSize), bounds.bMin)),
      reason: 'fewer than two profiled sizes: kept the largest profiled size',
    };
  if (!(fit.alpha > 0))
    return {
      measurements: withEpoch,
      fit,
      chosen: bounds.bMin,
      reason: 'larger batches did not shorten the epoch (α ≤ 0): smallest size',
    };
  const bSteep = Math.min(...measurements.map((m) => m.batchSize));
  const tau = tauFraction * fit.alpha * fit.A * bSteep ** (-fit.alpha - 1);
  const unclamped = ((fit.alpha * fit.A) / tau) ** (1 / (fit.alpha + 1));
  return {
    measurements: withEpoch,
    fit,
    tau,
    unclamped,
    chosen: clamp(unclamped),
    reason: `plateau where the marginal gain falls to ${(tauFraction * 100).toFixed(1)} % of the steepest slope`,
  };
}

/** Candidate sizes to profile: doubling from bMin while the profiling batches use at most half of the traces. */
export function profileSizes(
  totalTraces: number,
  bounds: { bMin: number; bMax: number },
  candidates = [4, 8, 16, 32],
): number[] {
  const out: number[] = [];
  let used = 0;
  for (const b of candidates) {
    if (b < bounds.bMin || b > bounds.bMax) continue;
    if (used + b > totalTraces / 2) break;
    out.push(b);
    used += b;
  }
  return out;
}
