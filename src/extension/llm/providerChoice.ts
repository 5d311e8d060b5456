import * as vscode from 'vscode';
import type { ProviderInfo } from '../../core/learn/types';
import { DEFAULT_OPENAI_MODEL, isLoopbackUrl } from '../../core/llm/providers';
import type { ProviderSpec } from '../../core/pool/learnProtocol';
import { API_KEY_SECRET } from '../commands/misc';
import type { Services } from '../services';
import { readSettings } from '../settings';
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
    const models = await vscode.lm.selectChatModels(settings.lmVendor || settings.lmFamily ? { vendor: settings.lmVendor || undefined, family: settings.lmFamily || undefined } : undefined);
    const model = models[0];
    if (model) {
      const allowed = services.context.languageModelAccessInformation.canSendRequest(model);
      if (allowed === true || (allowed === undefined && fromUserAction)) {
        const lm = new VscodeLmClient(model, 'Combee learns rules for this repository from your coding agents\' past sessions.');
        return { spec: { kind: 'proxy', info: lm.info }, info: lm.info, reason: `VS Code language model ${model.name}`, lm };
      }
      services.log.info(`VS Code language model ${model.name} is not allowed for background use yet; skipping it`);
    } else if (settings.provider === 'vscode') {
      void vscode.window.showWarningMessage('Combee: no VS Code language model is available (is GitHub Copilot installed and signed in?). Using the next provider.');
    }
    services.log.info('no usable VS Code language model');
  }
  if (settings.provider === 'openai' || settings.provider === 'auto') {
    const apiKey = await services.context.secrets.get(API_KEY_SECRET);
    if (apiKey || isLoopbackUrl(settings.openaiBaseUrl)) {
      const model = settings.openaiModel || DEFAULT_OPENAI_MODEL;
      return {
        spec: { kind: 'openai', baseUrl: settings.openaiBaseUrl, apiKey: apiKey ?? 'not-needed-for-local-endpoints', model, concurrency: settings.llmConcurrency, prices: settings.prices[model], embeddingModel: settings.embeddingModel },
        info: { provider: 'openai', model },
        reason: `OpenAI-compatible endpoint ${settings.openaiBaseUrl}`,
      };
    }
    if (settings.provider === 'openai') {
      void vscode.window.showWarningMessage('Combee: no API key is stored for the OpenAI-compatible endpoint. Run "Combee: Set API Key". Using the offline learner.');
    }
  }
  return { spec: { kind: 'offline' }, info: { provider: 'offline', model: 'combee-offline-miner' }, reason: 'offline learner (nothing leaves this machine)' };
}
