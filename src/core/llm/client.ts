import type { z } from 'zod';
import type { CallUsage, ProviderInfo } from '../learn/types';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface JsonRequest<T> {
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  /** Names the JSON schema sent to endpoints that support structured output. */
  schemaName: string;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

export interface JsonResponse<T> {
  value: T;
  usage: CallUsage;
  /** Counted, human-readable notes: retries, fallbacks, repairs. Never prompt text or keys. */
  warnings: string[];
}

/** One interface for every model source; answers are always validated against the request's schema. */
export interface LlmClient {
  readonly info: ProviderInfo;
  completeJson<T>(request: JsonRequest<T>): Promise<JsonResponse<T>>;
}

/** The model answered, but not with valid JSON of the right shape, even after one repair attempt. */
export class LlmOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmOutputError';
  }
}

/** Pulls a JSON value out of model text: bare JSON, a fenced block, or the outermost braces. */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  const candidates = [trimmed, fenced?.[1]?.trim(), trimmed.slice(trimmed.indexOf('{'), trimmed.lastIndexOf('}') + 1)];
  let lastError: unknown;
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate);
    } catch (error) {
      lastError = error;
    }
  }
  throw new SyntaxError(`no JSON found (${(lastError as Error | undefined)?.message ?? 'empty answer'})`);
}
