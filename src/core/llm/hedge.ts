/**
 * Hedged requests: a call still unanswered after a bounded multiple of the recent median latency gets a twin; the
 * first answer wins and the other is aborted. One hung call then costs a hedging delay, not a whole timeout, and a
 * batch waiting on it is not stalled.
 */
export interface HedgePolicy {
  /** Never hedge sooner than this (a few seconds: a slow answer is not a hung one). */
  floorMs: number;
  /** Hedge after this many times the median latency of recent calls. */
  multiple: number;
}

export const DEFAULT_HEDGE: HedgePolicy = { floorMs: 5_000, multiple: 4 };

/** The last calls' latencies (successes only): their median sets the hedging delay. */
export class LatencyTracker {
  private readonly samples: number[] = [];
  constructor(private readonly keep = 64) {}

  add(ms: number): void {
    this.samples.push(ms);
    if (this.samples.length > this.keep) this.samples.shift();
  }

  median(): number | undefined {
    if (this.samples.length === 0) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  /** Before any answer there is no median: wait the floor times the multiple. */
  hedgeDelay(policy: HedgePolicy): number {
    const median = this.median();
    return median === undefined ? policy.floorMs * policy.multiple : Math.max(policy.floorMs, policy.multiple * median);
  }
}

/**
 * Runs `attempt`; while nothing has settled, runs it once more every `delayMs` (at most `copies` in all: a twin can
 * hang too). The first to settle decides: an answer
 * wins and the other attempt is aborted; a failure (a 429 for the twin, say) fails the call at once and aborts the
 * other, so the caller's retry — with its backoff and Retry-After — starts afresh instead of waiting on a hung request.
 * A cancel of `signal` aborts both.
 */
export function hedged<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  delayMs: number,
  signal?: AbortSignal,
  onHedge?: () => void,
  copies = 3,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const controllers: AbortController[] = [];
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const finish = (done: () => void) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      for (const c of controllers) c.abort();
      done();
    };
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error('aborted')));
    const launch = () => {
      const controller = new AbortController();
      controllers.push(controller);
      attempt(controller.signal).then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    launch();
    const hedgeLater = () => {
      timer = setTimeout(() => {
        if (settled) return;
        onHedge?.();
        launch();
        if (controllers.length < copies) hedgeLater();
      }, delayMs);
    };
    hedgeLater();
  });
}
