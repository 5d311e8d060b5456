import { MessageChannel } from 'node:worker_threads';
import type { RunEstimate } from '../core/learn/estimate';
import type { HostMessage, LearnTaskOptions, LearnTaskResult, WorkerMessage } from '../core/pool/learnProtocol';
import type { ProviderChoice } from './llm/providerChoice';
import type { Services } from './services';

/** A worker that does not stop within this time after a cancel is terminated (its unfinished batch is lost). */
const COOPERATIVE_CANCEL_MS = 15_000;

export interface LearnHandlers {
  onProgress(message: string, fraction: number): void;
  confirm(estimate: RunEstimate): Promise<boolean>;
}

/**
 * Runs one workspace's learning in the worker pool: the extension host relays progress, answers the consent
 * question and, for VS Code's models, the proxied chat turns. A cancel is cooperative first (finished batches are
 * saved), then forced.
 */
export async function learnInWorker(services: Services, workspace: string, choice: ProviderChoice, options: LearnTaskOptions, handlers: LearnHandlers, signal: AbortSignal): Promise<LearnTaskResult> {
  const { port1, port2 } = new MessageChannel();
  const send = (message: HostMessage) => port2.postMessage(message);
  const hardStop = new AbortController();
  const inFlight = new AbortController();
  let forceTimer: NodeJS.Timeout | undefined;
  const onCancel = () => {
    send({ type: 'cancel' });
    inFlight.abort();
    forceTimer = setTimeout(() => hardStop.abort(), COOPERATIVE_CANCEL_MS);
  };
  signal.addEventListener('abort', onCancel, { once: true });
  port2.on('message', (message: WorkerMessage) => {
    switch (message.type) {
      case 'progress':
        handlers.onProgress(message.message, message.fraction);
        break;
      case 'confirm':
        void handlers.confirm(message.estimate).then((ok) => send({ type: 'confirmed', id: message.id, ok }), () => send({ type: 'confirmed', id: message.id, ok: false }));
        break;
      case 'chat': {
        const lm = choice.lm;
        if (!lm) {
          send({ type: 'chat-result', id: message.id, error: 'no host-side model for this run' });
          break;
        }
        const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
        lm.chat(message.messages, inFlight.signal, usage).then(
          (turn) => send({ type: 'chat-result', id: message.id, content: turn.content, finishReason: turn.finishReason, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }),
          (error: Error) => send({ type: 'chat-result', id: message.id, error: error.message }),
        );
        break;
      }
    }
  });
  try {
    if (signal.aborted) onCancel();
    return await services.workerPool().learn({
      storeDir: services.store.dir,
      workspace,
      provider: choice.spec,
      cacheDir: services.callCache.dir,
      options: { ...options, confirm: true },
      port: port1,
    }, hardStop.signal);
  } finally {
    signal.removeEventListener('abort', onCancel);
    if (forceTimer) clearTimeout(forceTimer);
    port2.close();
  }
}
