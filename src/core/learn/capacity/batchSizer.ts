import { chooseBatchSize, profileSizes, type Measurement } from './controller';
import type { ControllerRecord } from '../record/record';

/**
 * Hands out batch sizes: a fixed size, or (auto) the controller's. The controller decides from a latency profile
 * recorded by an earlier run with the same model, never from this run's clock, so the same sessions and seed give the
 * same batches. Without one, this run profiles the candidate sizes, learns the rest at the default size, and hands
 * back what it measured (`measured`) to be recorded for the next run.
 */
export class BatchSizer {
  private profile: number[] = [];
  /** The size for the rest of a run that is profiling (no recorded profile yet). */
  private fallback?: number;
  private chosen?: number;
  readonly measured: Measurement[] = [];
  decision?: ControllerRecord;
  largest = 0;

  constructor(
    private readonly setting: number | 'auto',
    private readonly total: number,
    private readonly bounds: { bMin: number; bMax: number },
    recorded: Measurement[] = [],
    fallback = 40,
  ) {
    if (setting !== 'auto') return;
    if (new Set(recorded.map((m) => m.batchSize)).size >= 2) {
      const decision = chooseBatchSize(recorded, total, bounds);
      this.chosen = decision.chosen;
      this.decision = toRecord(decision, `${decision.reason}; from the latency profile recorded for this model`);
      return;
    }
    const profile = profileSizes(total, bounds);
    if (profile.length < 2) {
      // Too few sessions to profile: one batch of everything (within bounds) is already the fastest.
      this.chosen = Math.max(1, Math.min(bounds.bMax, total));
      this.decision = {
        profiled: [],
        chosen: this.chosen,
        reason: `too few sessions (${total}) to profile: one batch`,
      };
      return;
    }
    // kept only when there is a profile to run: a lone size would be handed out for every batch instead of `chosen`
    this.profile = profile;
    this.fallback = Math.max(bounds.bMin, Math.min(bounds.bMax, fallback));
  }

  next(): number {
    const size =
      this.setting === 'auto'
        ? (this.profile[this.measured.length] ?? this.chosen ?? this.fallback ?? this.bounds.bMin)
        : Math.max(1, this.setting);
    this.largest = Math.max(this.largest, size);
    return size;
  }

  /** A batch's wall time: kept as a profile point while profiling; it never changes this run's sizes. */
  record(batchSize: number, delayMs: number): void {
    if (this.setting !== 'auto' || this.chosen !== undefined || this.measured.length >= this.profile.length) return;
    this.measured.push({ batchSize, delayMs });
    if (this.measured.length < this.profile.length) return;
    const decision = chooseBatchSize(this.measured, this.total, this.bounds);
    this.decision = {
      ...toRecord(
        decision,
        `profiled now: the default size ${this.fallback} is used for the rest of this run; the next run uses the size this profile gives (${decision.chosen})`,
      ),
      chosen: this.fallback ?? decision.chosen,
    };
  }
}

function toRecord(decision: ReturnType<typeof chooseBatchSize>, reason: string): ControllerRecord {
  return {
    profiled: decision.measurements.map((m) => ({ batchSize: m.batchSize, delayMs: m.delayMs, epochMs: m.epochMs })),
    fit: decision.fit,
    tau: decision.tau,
    unclamped: decision.unclamped,
    chosen: decision.chosen,
    reason,
  };
}
