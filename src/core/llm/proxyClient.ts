import type { ProviderInfo } from '../learn/types';
import type { JsonRequest, JsonResponse, LlmClient } from './client';
import { completeJsonWithRepair, withJsonInstruction } from './jsonCompletion';
import type { AskHost } from './proxyMessages';
import { redactMessages } from './redactMessages';

/**
 * A model the worker cannot reach itself (VS Code's language models live in the extension host): each chat turn is
 * asked of the host, redacted first. Validation and the repair attempt stay here.
 */
export class PortLlmClient implements LlmClient {
  constructor(
    readonly info: ProviderInfo,
    private readonly ask: AskHost,
  ) {}

  completeJson<T>(request: JsonRequest<T>): Promise<JsonResponse<T>> {
    return completeJsonWithRepair(request, async (messages, _warnings, usage) => {
      const answer = await this.ask(redactMessages(withJsonInstruction(messages, request)), request.signal);
      usage.inputTokens += answer.inputTokens;
      usage.outputTokens += answer.outputTokens;
      return { content: answer.content, finishReason: answer.finishReason };
    });
  }
}
