/** Counting semaphore: at most `limit` calls in flight; the limit can shrink and grow while in use. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private limit: number) {}

  get current(): number {
    return this.limit;
  }

  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    while (this.active < this.limit && this.waiting.length > 0) this.waiting.shift()?.();
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    while (this.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(go);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal?.reason ?? new Error('aborted'));
        };
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiting.push(go);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      if (this.active < this.limit) this.waiting.shift()?.();
    };
  }
}

/** Tokens-per-minute budget over a sliding 60 s window; a call waits until its estimate fits. */
export class TokenRateLimiter {
  private readonly spent: Array<{ at: number; tokens: number }> = [];
  constructor(
    private readonly tokensPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(tokens: number, signal?: AbortSignal): Promise<void> {
    const want = Math.min(tokens, this.tokensPerMinute);
    for (;;) {
      const now = this.now();
      while (this.spent.length && now - this.spent[0].at >= 60_000) this.spent.shift();
      const used = this.spent.reduce((sum, s) => sum + s.tokens, 0);
      if (used + want <= this.tokensPerMinute) {
        this.spent.push({ at: now, tokens: want });
        return;
      }
      await abortableSleep(Math.max(50, 60_000 - (now - this.spent[0].at)), signal);
    }
  }
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
