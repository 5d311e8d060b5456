import * as vscode from 'vscode';
import type { ProviderInfo } from '../../core/learn/types';
import type { ChatMessage } from '../../core/llm/client';
import { type ChatTurn, type UsageTally } from '../../core/llm/jsonCompletion';
import { redactMessages } from '../../core/llm/redactMessages';

/**
 * VS Code's language models (Copilot and others): no system role, no JSON mode, token limits from the model. Only
 * chat turns: the learning worker's PortLlmClient asks for JSON and repairs it there, one turn at a time.
 */
export class VscodeLmClient {
  readonly info: ProviderInfo;

  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly justification: string,
  ) {
    this.info = { provider: 'vscode', model: `${model.vendor}/${model.family}` };
  }

  /** One chat turn; the learning worker's calls arrive here through the message port. */
  async chat(messages: ChatMessage[], signal: AbortSignal | undefined, usage: UsageTally): Promise<ChatTurn> {
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const chat = toLmMessages(redactMessages(messages));
      const input = await this.countTokens(chat, source.token);
      if (input > this.model.maxInputTokens)
        throw new Error(`the prompt has ${input} tokens; ${this.model.name} takes ${this.model.maxInputTokens}`);
      const response = await this.model.sendRequest(chat, { justification: this.justification }, source.token);
      let text = '';
      for await (const part of response.text) text += part;
      usage.inputTokens += input;
      usage.outputTokens += await this.model.countTokens(text, source.token);
      return { content: text, finishReason: 'stop' };
    } catch (error) {
      if (signal?.aborted) {
        const abort = new Error('aborted');
        abort.name = 'AbortError';
        throw abort;
      }
      throw new Error(describeLmError(error));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  private async countTokens(
    messages: vscode.LanguageModelChatMessage[],
    token: vscode.CancellationToken,
  ): Promise<number> {
    let total = 0;
    for (const message of messages) total += await this.model.countTokens(message, token);
    return total;
  }
}

/** No system role in vscode.lm: system text is folded into the first user message. */
export function toLmMessages(messages: ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const rest = messages.filter((m) => m.role !== 'system');
  return rest.map((m, i) => {
    const content = i === 0 && system ? `${system}\n\n${m.content}` : m.content;
    return m.role === 'assistant'
      ? vscode.LanguageModelChatMessage.Assistant(content)
      : vscode.LanguageModelChatMessage.User(content);
  });
}

export function describeLmError(error: unknown): string {
  if (error instanceof vscode.LanguageModelError) {
    switch (error.code) {
      case vscode.LanguageModelError.NoPermissions().code:
        return 'Combee may not use this language model (permission not granted). Allow it when VS Code asks, or choose another provider.';
      case vscode.LanguageModelError.Blocked().code:
        return 'The language model blocked the request (quota or policy). Try again later or choose another provider.';
      case vscode.LanguageModelError.NotFound().code:
        return 'The selected language model is no longer available.';
      default:
        return `Language model error (${error.code}): ${error.message}`;
    }
  }
  return (error as Error).message ?? String(error);
}
