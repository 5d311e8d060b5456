import { CallCache } from '../../core/llm/cache';
import { EndpointRefusedError, isLoopbackUrl } from '../../core/llm/endpoint';
import {
  DEFAULT_OPENAI_BASE_URL,
  DEFAULT_OPENAI_MODEL,
  offlineRoles,
  openAiRoles,
  type ProviderSetting,
  type Roles,
} from '../../core/llm/providers';
import { UsageError } from '../args';
import type { Output } from '../output';

/** The endpoint the flags and the environment name: `--base-url` or OPENAI_BASE_URL, `--model`, OPENAI_API_KEY. */
export function endpointFromFlags(values: Record<string, string | boolean | string[] | undefined>): {
  baseUrl: string;
  model: string;
  apiKey?: string;
  allowInsecureHttp: boolean;
} {
  return {
    baseUrl:
      typeof values['base-url'] === 'string'
        ? values['base-url']
        : (process.env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL),
    model: typeof values.model === 'string' ? values.model : DEFAULT_OPENAI_MODEL,
    apiKey: process.env.OPENAI_API_KEY,
    allowInsecureHttp: values['allow-insecure-http'] === true,
  };
}

/** auto: an endpoint when a key (or a local endpoint) is given, else the offline learner. VS Code models exist only in VS Code. */
export function resolveRoles(
  provider: ProviderSetting,
  endpoint: {
    baseUrl: string;
    model: string;
    apiKey?: string;
    cache?: CallCache;
    prices?: { input: number; output: number };
    allowInsecureHttp: boolean;
    timeoutMs?: number;
    aggregationCapacityTokens?: number;
  },
  out: Output,
): Roles | undefined {
  const keyless = isLoopbackUrl(endpoint.baseUrl);
  const openai = () =>
    refusedAsUsage(() =>
      openAiRoles({
        baseUrl: endpoint.baseUrl,
        model: endpoint.model,
        apiKey: endpoint.apiKey || 'not-needed-for-local-endpoints',
        cache: endpoint.cache,
        prices: endpoint.prices,
        allowInsecureHttp: endpoint.allowInsecureHttp,
        timeoutMs: endpoint.timeoutMs,
        aggregationCapacityTokens: endpoint.aggregationCapacityTokens,
      }),
    );
  switch (provider) {
    case 'auto':
      return endpoint.apiKey || (keyless && endpoint.baseUrl !== DEFAULT_OPENAI_BASE_URL) ? openai() : offlineRoles();
    case 'offline':
      return offlineRoles();
    case 'vscode':
      out.warn(
        'the vscode provider exists only inside VS Code; use --provider offline or openai from the command line',
      );
      return undefined;
    case 'openai':
      if (!endpoint.apiKey && !keyless) {
        out.warn(
          `OPENAI_API_KEY is not set (needed for ${endpoint.baseUrl}); set it, or pass --base-url of a local endpoint, or use --provider offline`,
        );
        return undefined;
      }
      return openai();
  }
}

/** An endpoint the checks refuse (plain http elsewhere, credentials in the URL) is bad usage: exit 2. */
export function refusedAsUsage<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof EndpointRefusedError) throw new UsageError(error.message);
    throw error;
  }
}
