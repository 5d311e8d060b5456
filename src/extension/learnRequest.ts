import * as vscode from 'vscode';
import { memoriesOfThisUser } from '../core/service/agentMemories';
import type { LearnRequest } from '../core/service/learnRun/options';
import type { Settings } from '../shared/settingsSchema';
import { isSetByUser } from './settings';

/**
 * The learn request the settings make for one workspace folder: the same request the CLI makes from its flags. A
 * choice the user left unset (targets, skill roots) is left to the folder's sessions.
 */
export function learnRequestFromSettings(
  settings: Settings,
  workspace: string,
  model: string,
  windowDays = settings.windowDays,
): LearnRequest {
  const folder = vscode.Uri.file(workspace);
  return {
    playbookPath: settings.playbookPath,
    strategy: settings.strategy,
    batchSize: settings.batchSize,
    windowDays,
    budgetTokens: settings.condenseBudget,
    aggregationCapacityTokens: settings.aggregationCapacity,
    assets: {
      targets: isSetByUser('assetTargets', folder) ? settings.assetTargets : undefined,
      budgetTokens: settings.rulesBudget,
      agentBudgetTokens: settings.agentBudget,
      skillRoots: isSetByUser('skillRoots', folder) ? settings.skillRoots : undefined,
      playbookBudgetTokens: settings.playbookBudget,
      staleAfterRuns: settings.staleAfterRuns,
    },
    limits: { maxTokens: settings.maxTokensPerRun || undefined, maxCostUsd: settings.maxCostPerRun || undefined },
    pricePerMTokInput: settings.prices[model]?.input,
    agentMemories: settings.agentMemories ? memoriesOfThisUser(settings.extraRedactionPatterns) : undefined,
  };
}
