import { chooseBatchSize, profileSizes } from './controller';
import type { ControllerRecord } from './record';

/** Hands out batch sizes: a fixed size, or (auto) the profiling sizes first, then the controller's choice. */
export class BatchSizer {
  private readonly profile: number[];
  private readonly measured: Array<{ batchSize: number; delayMs: number }> = [];
  private chosen?: number;
  decision?: ControllerRecord;
  largest = 0;

  constructor(private readonly setting: number | 'auto', private readonly total: number, private readonly bounds: { bMin: number; bMax: number }) {
    this.profile = setting === 'auto' ? profileSizes(total, bounds) : [];
    if (setting === 'auto' && this.profile.length < 2) {
      // Too few sessions to profile: one batch of everything (within bounds) is already the fastest.
      this.chosen = Math.max(1, Math.min(bounds.bMax, total));
      this.decision = { profiled: [], chosen: this.chosen, reason: `too few sessions (${total}) to profile: one batch` };
    }
  }

  next(): number {
    const size = this.setting === 'auto' ? (this.profile[this.measured.length] ?? this.chosen ?? this.bounds.bMin) : Math.max(1, this.setting);
    this.largest = Math.max(this.largest, size);
    return size;
  }

  record(batchSize: number, delayMs: number): void {
    if (this.setting !== 'auto' || this.chosen !== undefined) return;
    this.measured.push({ batchSize, delayMs });
    if (this.measured.length < this.profile.length) return;
    const decision = chooseBatchSize(this.measured, this.total, this.bounds);
    this.chosen = decision.chosen;
    this.decision = {
      profiled: decision.measurements.map((m) => ({ batchSize: m.batchSize, delayMs: m.delayMs, epochMs: m.epochMs })),
      fit: decision.fit,
      tau: decision.tau,
      unclamped: decision.unclamped,
      chosen: decision.chosen,
      reason: decision.reason,
    };
  }
}
