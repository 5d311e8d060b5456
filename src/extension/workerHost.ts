import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { RunEstimate } from '../core/learn/estimate';
import type { LiveRunSnapshot } from '../core/learn/record/liveRun';
import type { HostApi, WorkerApi } from '../core/pool/learnProtocol';
import { PortRpc } from '../core/util/portRpc';
import type { ProviderChoice } from './llm/providerChoice';

/** A worker that does not stop within this time after a cancel is terminated (its unfinished batch is lost). */
const COOPERATIVE_CANCEL_MS = 15_000;

export interface WorkerHandlers {
  onProgress(message: string, fraction: number): void;
  /** The run's tree so far (every second while it grows). */
  onSnapshot?(snapshot: LiveRunSnapshot): void;
  confirm?(estimate: RunEstimate): Promise<boolean>;
}

/**
 * The host's side of a task in the worker pool: it relays progress, answers the consent question and, for VS
 * Code's models, the proxied chat turns. A cancel is cooperative first, then forced (`hardStop` aborts the task).
 */
export async function hostWorkerTask<T>(
  choice: ProviderChoice,
  handlers: WorkerHandlers,
  signal: AbortSignal,
  start: (port: MessagePort, hardStop: AbortSignal) => Promise<T>,
): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  const hardStop = new AbortController();
  const inFlight = new AbortController();
  const worker = new PortRpc<WorkerApi, HostApi>(port2, {
    progress: ({ message, fraction }) => handlers.onProgress(message, fraction),
    snapshot: (snapshot) => handlers.onSnapshot?.(snapshot),
    confirm: (estimate) => (handlers.confirm ? handlers.confirm(estimate).catch(() => false) : true),
    chat: async (messages) => {
      if (!choice.lm) throw new Error('no host-side model for this run');
      const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, retries: 0, hedges: 0 };
      const turn = await choice.lm.chat(messages, inFlight.signal, usage);
      return {
        content: turn.content,
        finishReason: turn.finishReason,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
      };
    },
  });
  let forceTimer: NodeJS.Timeout | undefined;
  const onCancel = () => {
    worker.notify('cancel', 'cancelled by the user');
    inFlight.abort();
    forceTimer = setTimeout(() => hardStop.abort(), COOPERATIVE_CANCEL_MS);
  };
  signal.addEventListener('abort', onCancel, { once: true });
  try {
    if (signal.aborted) onCancel();
    return await start(port1, hardStop.signal);
  } finally {
    signal.removeEventListener('abort', onCancel);
    if (forceTimer) clearTimeout(forceTimer);
    port2.close();
  }
}
