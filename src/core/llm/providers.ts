import type { Aggregator, ProviderInfo, Reflector } from '../learn/types';
import type { EmbedFn } from '../learn/types';
import { OfflineAggregator } from './offline/aggregator';
import { OfflineReflector } from './offline/reflector';
import { LlmAggregator, LlmReflector } from './llmRoles';
import { OpenAiCompatibleClient } from './openaiClient';
import { CachingLlmClient, type CallCache } from './cache';
import { checkEndpoint } from './endpoint';
import type { HedgePolicy } from './hedge';

export const PROVIDER_CHOICES = ['auto', 'offline', 'openai', 'vscode'] as const;
/** What the provider setting and `--provider` may say (not the provider a run ends up with). */
export type ProviderSetting = (typeof PROVIDER_CHOICES)[number];

export interface Roles {
  reflector: Reflector;
  aggregator: Aggregator;
  info: ProviderInfo;
  /** Present when the provider offers embeddings (used to catch duplicates that are worded differently). */
  embed?: EmbedFn;
}

/** The embedded default: deterministic mining and merging, nothing leaves the machine. */
export function offlineRoles(): Roles {
  return {
    reflector: new OfflineReflector(),
    aggregator: new OfflineAggregator(),
    info: { provider: 'offline', model: 'combee-offline-miner' },
  };
}

export interface OpenAiSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  concurrency?: number;
  tokensPerMinute?: number;
  timeoutMs?: number;
  prices?: { input: number; output: number };
  condenseBudgetTokens?: number;
  /** Effective capacity of one aggregation call (see learn/capacity/capacity.ts). */
  aggregationCapacityTokens?: number;
  embeddingModel?: string;
  /** Completed calls are cached here (content-addressed); omit to disable. */
  cache?: CallCache;
  /** When an unanswered call gets a twin request (false: never); see hedge.ts. */
  hedge?: HedgePolicy | false;
  maxRetries?: number;
  /** Base of the retry backoff (simulations and tests shorten it). */
  backoffBaseMs?: number;
  /** Plain http to a machine other than this one (a model server on the user's network); only from the user's own settings. */
  allowInsecureHttp?: boolean;
}

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1-mini';

/** Reflection and aggregation through any OpenAI-compatible endpoint. */
export function openAiRoles(settings: OpenAiSettings): Roles {
  checkEndpoint(settings.baseUrl, { allowInsecureHttp: settings.allowInsecureHttp });
  const http = new OpenAiCompatibleClient(settings);
  const client = settings.cache ? new CachingLlmClient(http, settings.cache, settings.baseUrl) : http;
  const embed: EmbedFn = async (texts, signal) => {
    const vectors = await http.embed(texts, signal);
    if (!vectors) throw new Error('embeddings unavailable');
    return vectors;
  };
  return {
    reflector: new LlmReflector(client, settings.condenseBudgetTokens),
    aggregator: new LlmAggregator(client, settings.aggregationCapacityTokens),
    info: client.info,
    embed,
  };
}
