import type { ChatMessage } from './client';

// The messages of a model call proxied over a port (the worker asks, the host's VS Code model answers): part of the
// learning task's port protocol (pool/learnProtocol), defined here beside the client that sends them.

/** Worker → host: one chat call. */
export interface ChatRequest {
  type: 'chat';
  id: number;
  messages: ChatMessage[];
}

/** Host → worker: its answer, or why there is none. */
export interface ChatResult {
  type: 'chat-result';
  id: number;
  content?: string;
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  error?: string;
}
