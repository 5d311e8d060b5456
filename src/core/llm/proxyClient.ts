import type { MessagePort } from 'node:worker_threads';
import type { ProviderInfo } from '../learn/types';
import type { ChatRequest, ChatResult } from './proxyMessages';
import type { ChatMessage, JsonRequest, JsonResponse, LlmClient } from './client';
import { completeJsonWithRepair, withJsonInstruction } from './jsonCompletion';
import { redactMessages } from './redactMessages';

/**
 * A model the worker cannot reach itself (VS Code's language models live in the extension host): each chat turn is
 * sent over the message port and answered by the host. Validation and the repair attempt stay here.
 */
export class PortLlmClient implements LlmClient {
  private nextId = 0;
  private readonly pending = new Map<number, (message: ChatResult) => void>();

  constructor(readonly info: ProviderInfo, private readonly port: MessagePort) {
    // the port carries the learning task's other messages too; this client answers only to its own
    port.on('message', (message: { type: string }) => {
      if (message.type !== 'chat-result') return;
      const result = message as ChatResult;
      this.pending.get(result.id)?.(result);
      this.pending.delete(result.id);
    });
  }

  completeJson<T>(request: JsonRequest<T>): Promise<JsonResponse<T>> {
    return completeJsonWithRepair(request, async (messages, _warnings, usage) => {
      const answer = await this.ask(withJsonInstruction(messages, request), request.signal);
      usage.inputTokens += answer.inputTokens ?? 0;
      usage.outputTokens += answer.outputTokens ?? 0;
      return { content: answer.content ?? '', finishReason: answer.finishReason ?? 'stop' };
    });
  }

  private ask(messages: ChatMessage[], signal?: AbortSignal): Promise<ChatResult> {
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
      this.pending.set(id, (answer) => {
        signal?.removeEventListener('abort', onAbort);
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer);
      });
      this.port.postMessage({ type: 'chat', id, messages: redactMessages(messages) } satisfies ChatRequest);
    });
  }
}
