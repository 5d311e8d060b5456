import type { MessagePort } from 'node:worker_threads';

/**
 * Typed calls across a MessagePort (a worker thread and the host): each call carries an id and gets its own reply or
 * error; a notification gets none. When the port closes — the other side finished or failed — every call still
 * waiting is rejected, so nothing waits for an answer that cannot come.
 */

/** The methods one side serves: one argument, a value or a promise of one. */
export type Api = Record<string, (arg: never) => unknown>;
type Arg<F> = F extends (arg: infer A) => unknown ? A : never;
type Result<F> = F extends (arg: never) => infer R ? Awaited<R> : never;

type Envelope =
  | { rpc: 'call'; id: number; method: string; arg: unknown }
  | { rpc: 'notify'; method: string; arg: unknown }
  | { rpc: 'reply'; id: number; value: unknown }
  | { rpc: 'error'; id: number; message: string };

export class PortClosedError extends Error {
  constructor() {
    super('the other side of the port is gone');
    this.name = 'PortClosedError';
  }
}

export class PortRpc<Remote extends Api, Local extends Api = Api> {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private closed = false;

  /** `local`: what this side serves to the other. */
  constructor(
    private readonly port: MessagePort,
    private readonly local: Partial<Local> = {},
  ) {
    port.on('message', (message: Envelope) => this.receive(message));
    port.on('close', () => this.fail(new PortClosedError()));
  }

  /** Calls `method` on the other side; an abort rejects it here (the other side is not told: send a notification). */
  call<K extends keyof Remote & string>(
    method: K,
    arg: Arg<Remote[K]>,
    signal?: AbortSignal,
  ): Promise<Result<Remote[K]>> {
    if (this.closed) return Promise.reject(new PortClosedError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        const error = new Error('aborted');
        error.name = 'AbortError';
        reject(error);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          then(value);
        };
      this.pending.set(id, { resolve: settle(resolve as (value: unknown) => void), reject: settle(reject) });
      this.port.postMessage({ rpc: 'call', id, method, arg } satisfies Envelope);
    });
  }

  /** Tells the other side something that needs no answer (progress, a cancel). */
  notify<K extends keyof Remote & string>(method: K, arg: Arg<Remote[K]>): void {
    if (!this.closed) this.port.postMessage({ rpc: 'notify', method, arg } satisfies Envelope);
  }

  private receive(message: Envelope): void {
    switch (message.rpc) {
      case 'call':
        this.serve(message.method, message.arg).then(
          (value) => this.post({ rpc: 'reply', id: message.id, value }),
          (error: Error) => this.post({ rpc: 'error', id: message.id, message: error?.message ?? String(error) }),
        );
        break;
      case 'notify':
        void this.serve(message.method, message.arg).catch(() => undefined);
        break;
      case 'reply':
        this.pending.get(message.id)?.resolve(message.value);
        this.pending.delete(message.id);
        break;
      case 'error':
        this.pending.get(message.id)?.reject(new Error(message.message));
        this.pending.delete(message.id);
        break;
    }
  }

  private async serve(method: string, arg: unknown): Promise<unknown> {
    const handler = (this.local as Partial<Api>)[method];
    if (!handler) throw new Error(`no method ${method} on this side`);
    return (handler as (arg: unknown) => unknown)(arg);
  }

  private post(message: Envelope): void {
    if (!this.closed) this.port.postMessage(message);
  }

  private fail(error: Error): void {
    this.closed = true;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}
