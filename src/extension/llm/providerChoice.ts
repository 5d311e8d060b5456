import * as vscode from 'vscode';
import { CachingLlmClient } from '../../core/llm/cache';
import { LlmAggregator, LlmReflector } from '../../core/llm/llmRoles';
import { offlineRoles, openAiRoles, isLoopbackUrl, type Roles } from '../../core/llm/providers';
import { API_KEY_SECRET } from '../commands/misc';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { VscodeLmClient } from './vscodeLmClient';

export interface RolesChoice {
  roles: Roles;
  /** Why this provider was used (shown in the log and the UI). */
  reason: string;
}

/**
 * auto: VS Code's models when one is available and usable, else the OpenAI-compatible endpoint when a key is stored,
 * else the offline learner. `fromUserAction` false (background runs) never triggers VS Code's consent prompt.
 */
export async function chooseRoles(services: Services, fromUserAction: boolean): Promise<RolesChoice> {
  const settings = readSettings();
  const wantVscode = settings.provider === 'vscode' || settings.provider === 'auto';
  if (wantVscode) {
    const models = await vscode.lm.selectChatModels(settings.lmVendor || settings.lmFamily ? { vendor: settings.lmVendor || undefined, family: settings.lmFamily || undefined } : undefined);
    const model = models[0];
    if (model) {
      const allowed = services.context.languageModelAccessInformation.canSendRequest(model);
      if (allowed === true || (allowed === undefined && fromUserAction)) {
        const client = new CachingLlmClient(new VscodeLmClient(model, 'Combee learns rules for this repository from your coding agents\' past sessions.'), services.callCache, 'vscode.lm');
        return { roles: { reflector: new LlmReflector(client, settings.condenseBudget), aggregator: new LlmAggregator(client), info: client.info }, reason: `VS Code language model ${model.name}` };
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
      return { roles: openAiRoles({ baseUrl: settings.openaiBaseUrl, model: settings.openaiModel, apiKey: apiKey ?? 'not-needed-for-local-endpoints', concurrency: settings.llmConcurrency, condenseBudgetTokens: settings.condenseBudget, cache: services.callCache, prices: settings.prices[settings.openaiModel], embeddingModel: settings.embeddingModel }), reason: `OpenAI-compatible endpoint ${settings.openaiBaseUrl}` };
    }
    if (settings.provider === 'openai') {
      void vscode.window.showWarningMessage('Combee: no API key is stored for the OpenAI-compatible endpoint. Run "Combee: Set API Key". Using the offline learner.');
    }
  }
  return { roles: offlineRoles(), reason: 'offline learner (nothing leaves this machine)' };
}
