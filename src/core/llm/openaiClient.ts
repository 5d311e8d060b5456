import OpenAI from 'openai';
import { z } from 'zod';
import type { ProviderInfo } from '../learn/types';
import type { ChatMessage, JsonRequest, JsonResponse, LlmClient } from './client';
import { completeJsonWithRepair, withJsonInstruction, type ChatTurn, type UsageTally } from './jsonCompletion';
import { DEFAULT_HEDGE, hedged, LatencyTracker, type HedgePolicy } from './hedge';
import { abortableSleep, Semaphore, TokenRateLimiter } from './rateLimit';
import { redactMessages } from './redactMessages';
import { redactText } from '../trace/redact';
import { headOf } from '../util/text';

export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface OpenAiClientOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per-call timeout; a hung endpoint fails the call (and is retried), never the run. Default: sized to the request. */
  timeoutMs?: number;
  /** When an unanswered call gets a twin request (false: never). */
  hedge?: HedgePolicy | false;
  maxRetries?: number;
  concurrency?: number;
  tokensPerMinute?: number;
  temperature?: number;
  /** USD per million tokens, for cost estimates. */
  prices?: { input: number; output: number };
  /** Base of the exponential backoff (tests shorten it). */
  backoffBaseMs?: number;
  /** Model for embeddings (semantic duplicate detection). */
  embeddingModel?: string;
}

/** How JSON is asked for: the best the endpoint accepts, learned from its 400s. */
export type JsonMode = 'json_schema' | 'json_object' | 'prompted';

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

const MAX_TIMEOUT_MS = 600_000;

/** Long enough for the answer this request may need (tokens in and out), short enough that a hang fails in time. */
export function requestTimeoutMs(estimatedTokens: number): number {
  return Math.min(MAX_TIMEOUT_MS, 20_000 + 20 * estimatedTokens);
}

/** Any OpenAI-compatible endpoint (OpenAI, Azure, DeepSeek, OpenRouter, Ollama, vLLM, LM Studio) via `openai`. */
export class OpenAiCompatibleClient implements LlmClient {
  readonly info: ProviderInfo;
  private readonly client: OpenAI;
  private readonly semaphore: Semaphore;
  private readonly tpm?: TokenRateLimiter;
  private jsonMode: JsonMode = 'json_schema';
  private embeddingsUnavailable = false;
  /** Successes since the last 429: the concurrency limit grows back one step per `maxConcurrency` of them. */
  private successesSince429 = 0;
  /** Bumped at each decrease: a 429 for a request sent before the last decrease is the same overload, counted once. */
  private congestionEpoch = 0;
  private readonly maxConcurrency: number;
  private readonly latency = new LatencyTracker();

  constructor(private readonly options: OpenAiClientOptions) {
    this.info = { provider: 'openai', model: options.model };
    // Retries are ours (counted, Retry-After aware), so the SDK's own are off.
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      maxRetries: 0,
      timeout: options.timeoutMs ?? MAX_TIMEOUT_MS,
    });
    this.maxConcurrency = Math.max(1, options.concurrency ?? 4);
    this.semaphore = new Semaphore(this.maxConcurrency);
    if (options.tokensPerMinute) this.tpm = new TokenRateLimiter(options.tokensPerMinute);
  }

  /** Embeddings from the same endpoint; an endpoint without them (404, 400) turns them off for this client. */
  async embed(texts: string[], signal?: AbortSignal): Promise<number[][] | undefined> {
    if (this.embeddingsUnavailable || texts.length === 0) return texts.length === 0 ? [] : undefined;
    try {
      const response = await this.client.embeddings.create(
        {
          model: this.options.embeddingModel ?? DEFAULT_EMBEDDING_MODEL,
          input: texts.map(redactText),
          encoding_format: 'float',
        },
        { signal },
      );
      return [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    } catch {
      if (signal?.aborted) throw abortError(signal);
      this.embeddingsUnavailable = true;
      return undefined;
    }
  }

  completeJson<T>(request: JsonRequest<T>): Promise<JsonResponse<T>> {
    return completeJsonWithRepair(request, (messages, warnings, usage) =>
      this.chat(request, messages, warnings, usage),
    );
  }

  private async chat<T>(
    request: JsonRequest<T>,
    messages: ChatMessage[],
    warnings: string[],
    usage: UsageTally,
  ): Promise<ChatTurn> {
    const maxRetries = this.options.maxRetries ?? 4;
    const estimate =
      Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4) + (request.maxOutputTokens ?? 2000);
    for (let attempt = 0; ; attempt++) {
      await this.tpm?.take(estimate, request.signal);
      const release = await this.semaphore.acquire(request.signal);
      const sentInEpoch = this.congestionEpoch;
      try {
        const body = chatRequestBody(this.options, messages, request, this.jsonMode);
        const timeout = this.options.timeoutMs ?? requestTimeoutMs(estimate);
        const send = (signal: AbortSignal) => this.client.chat.completions.create(body, { signal, timeout });
        const started = performance.now();
        const hedge = this.options.hedge ?? DEFAULT_HEDGE;
        const completion =
          hedge === false
            ? await send(request.signal ?? new AbortController().signal)
            : await hedged(send, this.latency.hedgeDelay(hedge), request.signal, () => {
                usage.hedges++;
                warnings.push(
                  `no answer after ${Math.round(this.latency.hedgeDelay(hedge))} ms; sent a second copy of the request (hedged)`,
                );
              });
        this.latency.add(performance.now() - started);
        usage.inputTokens += completion.usage?.prompt_tokens ?? 0;
        usage.outputTokens += completion.usage?.completion_tokens ?? 0;
        if (this.options.prices && completion.usage) {
          usage.costUsd +=
            (completion.usage.prompt_tokens * this.options.prices.input +
              completion.usage.completion_tokens * this.options.prices.output) /
            1e6;
        }
        if (++this.successesSince429 >= this.maxConcurrency && this.semaphore.current < this.maxConcurrency) {
          this.successesSince429 = 0;
          this.semaphore.setLimit(this.semaphore.current + 1);
        }
        const choice = completion.choices?.[0];
        return { content: choice?.message?.content ?? '', finishReason: choice?.finish_reason ?? 'stop' };
      } catch (error) {
        if (request.signal?.aborted || error instanceof OpenAI.APIUserAbortError) throw abortError(request.signal);
        if (
          error instanceof OpenAI.BadRequestError &&
          this.jsonMode !== 'prompted' &&
          /response_format|json_schema|json_object|structured/i.test(error.message)
        ) {
          this.jsonMode = this.jsonMode === 'json_schema' ? 'json_object' : 'prompted';
          warnings.push(`endpoint rejected the JSON mode; falling back to ${this.jsonMode}`);
          usage.retries++;
          attempt--;
          continue;
        }
        const status = error instanceof OpenAI.APIError ? error.status : undefined;
        const retryable = error instanceof OpenAI.APIConnectionError || (status !== undefined && RETRYABLE.has(status));
        if (status === 429) {
          // The endpoint says we are too many: halve our concurrency once per overload (the requests already in flight
          // answer 429 together), never below half of the user's setting; additive increase brings it back.
          this.successesSince429 = 0;
          if (sentInEpoch === this.congestionEpoch) {
            this.congestionEpoch++;
            this.semaphore.setLimit(
              Math.max(Math.ceil(this.maxConcurrency / 2), Math.floor(this.semaphore.current / 2)),
            );
          }
        }
        if (!retryable || attempt >= maxRetries) throw new Error(describe(error, status));
        const wait = retryDelay(error, attempt, this.options.backoffBaseMs ?? 1000);
        warnings.push(`${describe(error, status)}; retry ${attempt + 1}/${maxRetries} in ${Math.round(wait)} ms`);
        usage.retries++;
        await abortableSleep(wait, request.signal).catch(() => {
          throw abortError(request.signal);
        });
      } finally {
        release();
      }
    }
  }
}

/** The chat-completions body a request is sent as (the Batch API uploads the very same). */
export function chatRequestBody<T>(
  options: { model: string; temperature?: number },
  messages: ChatMessage[],
  request: JsonRequest<T>,
  jsonMode: JsonMode = 'json_schema',
) {
  return {
    model: options.model,
    messages: redactMessages(jsonMode === 'prompted' ? withJsonInstruction(messages, request) : messages),
    temperature: options.temperature ?? 0.2,
    max_tokens: request.maxOutputTokens ?? 2000,
    ...responseFormat(request, jsonMode),
  };
}

function responseFormat<T>(
  request: JsonRequest<T>,
  jsonMode: JsonMode,
): { response_format?: OpenAI.ChatCompletionCreateParams['response_format'] } {
  switch (jsonMode) {
    case 'json_schema':
      return {
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: request.schemaName,
            schema: z.toJSONSchema(request.schema, { io: 'input' }) as Record<string, unknown>,
            strict: false,
          },
        },
      };
    case 'json_object':
      return { response_format: { type: 'json_object' } };
    default:
      return {};
  }
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms when given; else exponential backoff with jitter. */
function retryDelay(error: unknown, attempt: number, baseMs: number): number {
  const headers = error instanceof OpenAI.APIError ? error.headers : undefined;
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.min(ms, 60_000);
  const after = headers?.get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.min(seconds * 1000, 60_000);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.min(Math.max(0, date - Date.now()), 60_000);
  }
  return Math.min(baseMs * 2 ** attempt * (0.5 + Math.random()), 30_000);
}

function describe(error: unknown, status: number | undefined): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'request timed out';
  if (error instanceof OpenAI.APIConnectionError) return `connection failed (${error.message})`;
  if (status === 401) return 'the endpoint rejected the API key (401)';
  if (status === 429) return 'rate limited (429)';
  if (status !== undefined) return `HTTP ${status}: ${headOf((error as Error).message, 200)}`;
  return (error as Error).message;
}

function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('aborted');
  error.name = 'AbortError';
  return error;
}
