import type { ChatMessage } from './client';

// A model call proxied to the host (VS Code's models live in the extension host): the worker asks, the host answers.
// Part of the learning task's port protocol (pool/learnProtocol), defined here beside the client that asks.

/** The host's answer to one chat call. */
export interface ChatAnswer {
  content: string;
  finishReason: string;
  inputTokens: number;
  outputTokens: number;
}

/** What the host serves for model calls. */
export type ChatApi = {
  chat: (messages: ChatMessage[]) => ChatAnswer | Promise<ChatAnswer>;
};

/** One chat call as the worker makes it (over the port, or straight to a function in tests). */
export type AskHost = (messages: ChatMessage[], signal?: AbortSignal) => Promise<ChatAnswer>;
