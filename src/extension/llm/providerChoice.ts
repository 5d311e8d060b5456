import * as vscode from 'vscode';
import type { ProviderInfo } from '../../core/learn/types';
import { checkEndpoint, EndpointRefusedError, isLoopbackUrl } from '../../core/llm/endpoint';
import { DEFAULT_OPENAI_MODEL } from '../../core/llm/providers';
import type { ProviderSpec } from '../../core/pool/learnProtocol';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { apiKeyFor, migrateLegacyKey } from './apiKeys';
import { VscodeLmClient } from './vscodeLmClient';

export interface ProviderChoice {
  /** What the worker running the learning builds its roles from. */
  spec: ProviderSpec;
  info: ProviderInfo;
  /** Why this provider was used (shown in the log and the UI). */
  reason: string;
  /** For VS Code's models: the host-side client the worker's calls are proxied to. */
  lm?: VscodeLmClient;
}

/**
 * auto: VS Code's models when one is available and usable, else the OpenAI-compatible endpoint when a key is stored
 * (or it is local), else the offline learner. `fromUserAction` false (background runs) never triggers VS Code's
 * consent prompt.
 */
export async function chooseProvider(services: Services, fromUserAction: boolean): Promise<ProviderChoice> {
  const settings = readSettings();
  if (settings.provider === 'vscode' || settings.provider === 'auto') {
    const models = await vscode.lm.selectChatModels(
      settings.lmVendor || settings.lmFamily
        ? { vendor: settings.lmVendor || undefined, family: settings.lmFamily || undefined }
        : undefined,
    );
    const model = models[0];
    if (model) {
      const allowed = services.context.languageModelAccessInformation.canSendRequest(model);
      if (allowed === true || (allowed === undefined && fromUserAction)) {
        const lm = new VscodeLmClient(
          model,
          "Combee learns rules for this repository from your coding agents' past sessions.",
        );
        return {
          spec: { kind: 'proxy', info: lm.info },
          info: lm.info,
          reason: `VS Code language model ${model.name}`,
          lm,
        };
      }
      services.log.info(`VS Code language model ${model.name} is not allowed for background use yet; skipping it`);
    } else if (settings.provider === 'vscode') {
      void vscode.window.showWarningMessage(
        'Combee: no VS Code language model is available (is GitHub Copilot installed and signed in?). Using the next provider.',
      );
    }
    services.log.info('no usable VS Code language model');
  }
  if (settings.provider === 'openai' || settings.provider === 'auto') {
    const refused = endpointRefusal(settings.openaiBaseUrl, settings.allowInsecureHttp);
    const moved = await migrateLegacyKey(services.context.secrets, settings.openaiBaseUrl);
    if (moved) services.log.info(`the API key saved by an earlier version is now bound to ${moved}`);
    // The key is looked up by the endpoint's origin: one saved for another endpoint is never sent here.
    const apiKey = refused ? undefined : await apiKeyFor(services.context.secrets, settings.openaiBaseUrl);
    if (refused) {
      services.log.warn(`OpenAI-compatible endpoint not used: ${refused}`);
      if (settings.provider === 'openai' && fromUserAction)
        void vscode.window.showWarningMessage(`Combee: ${refused}. Using the offline learner.`);
    } else if (apiKey || isLoopbackUrl(settings.openaiBaseUrl)) {
      const model = settings.openaiModel || DEFAULT_OPENAI_MODEL;
      return {
        spec: {
          kind: 'openai',
          baseUrl: settings.openaiBaseUrl,
          apiKey: apiKey ?? 'not-needed-for-local-endpoints',
          model,
          concurrency: settings.llmConcurrency,
          prices: settings.prices[model],
          embeddingModel: settings.embeddingModel,
          allowInsecureHttp: settings.allowInsecureHttp,
          timeoutMs: settings.requestTimeoutSeconds ? settings.requestTimeoutSeconds * 1000 : undefined,
        },
        info: { provider: 'openai', model },
        reason: `OpenAI-compatible endpoint ${settings.openaiBaseUrl}`,
      };
    }
    if (!refused && settings.provider === 'openai' && fromUserAction) {
      void vscode.window.showWarningMessage(
        `Combee: no API key is stored for ${new URL(settings.openaiBaseUrl).origin}. Run "Combee: Set API Key". Using the offline learner.`,
      );
    }
  }
  return offlineChoice();
}

/** The offline learner: no model, nothing leaves the machine. */
export function offlineChoice(): ProviderChoice {
  return {
    spec: { kind: 'offline' },
    info: { provider: 'offline', model: 'combee-offline-miner' },
    reason: 'offline learner (nothing leaves this machine)',
  };
}

/** Why the endpoint may not be used (plain http to another machine, not a URL), or undefined when it may. */
function endpointRefusal(baseUrl: string, allowInsecureHttp: boolean): string | undefined {
  try {
    checkEndpoint(baseUrl, { allowInsecureHttp });
    return undefined;
  } catch (error) {
    if (error instanceof EndpointRefusedError) return error.message;
    throw error;
  }
}
