import type { Aggregator, ProviderInfo, Reflector } from '../learn/types';
import { OfflineAggregator } from './offline/aggregator';
import { OfflineReflector } from './offline/reflector';

export const PROVIDER_CHOICES = ['auto', 'offline', 'openai', 'vscode'] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];

export interface Roles {
  reflector: Reflector;
  aggregator: Aggregator;
  info: ProviderInfo;
}

/** The embedded default: deterministic mining and merging, nothing leaves the machine. */
export function offlineRoles(): Roles {
  return { reflector: new OfflineReflector(), aggregator: new OfflineAggregator(), info: { provider: 'offline', model: 'combee-offline-miner' } };
}
