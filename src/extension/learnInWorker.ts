import { MessageChannel } from 'node:worker_threads';
import type { RunEstimate } from '../core/learn/estimate';
import type { LiveRunSnapshot } from '../core/learn/liveRun';
import type { HostApi, LearnTaskOptions, LearnTaskResult, WorkerApi } from '../core/pool/learnProtocol';
import { PortRpc } from '../core/util/portRpc';
import type { ProviderChoice } from './llm/providerChoice';
import type { Services } from './services';

/** A worker that does not stop within this time after a cancel is terminated (its unfinished batch is lost). */
const COOPERATIVE_CANCEL_MS = 15_000;

export interface LearnHandlers {
  onProgress(message: string, fraction: number): void;
  /** The run's tree so far (every second while it grows). */
  onSnapshot?(snapshot: LiveRunSnapshot): void;
  confirm(estimate: RunEstimate): Promise<boolean>;
}

/**
 * Runs one workspace's learning in the worker pool: the extension host relays progress, answers the consent
 * question and, for VS Code's models, the proxied chat turns. A cancel is cooperative first (finished batches are
 * saved), then forced.
 */
export async function learnInWorker(
  services: Services,
  workspace: string,
  choice: ProviderChoice,
  options: LearnTaskOptions,
  handlers: LearnHandlers,
  signal: AbortSignal,
): Promise<LearnTaskResult> {
  const { port1, port2 } = new MessageChannel();
  const hardStop = new AbortController();
  const inFlight = new AbortController();
  const worker = new PortRpc<WorkerApi, HostApi>(port2, {
    progress: ({ message, fraction }) => handlers.onProgress(message, fraction),
    snapshot: (snapshot) => handlers.onSnapshot?.(snapshot),
    confirm: (estimate) => handlers.confirm(estimate).catch(() => false),
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
    return await services.workerPool().learn(
      {
        storeDir: services.store.dir,
        workspace,
        provider: choice.spec,
        cacheDir: services.callCache.dir,
        options: { ...options, confirm: true },
        port: port1,
      },
      hardStop.signal,
    );
  } finally {
    signal.removeEventListener('abort', onCancel);
    if (forceTimer) clearTimeout(forceTimer);
    port2.close();
  }
}
