/** Counting semaphore: at most `limit` calls in flight. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active >= this.limit) {
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
      this.waiting.shift()?.();
    };
  }
}

/** Tokens-per-minute budget over a sliding 60 s window; a call waits until its estimate fits. */
export class TokenRateLimiter {
  private readonly spent: Array<{ at: number; tokens: number }> = [];
  constructor(private readonly tokensPerMinute: number, private readonly now: () => number = Date.now) {}

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
