import * as vscode from 'vscode';
import type { RunEstimate } from '../../core/learn/estimate';
import { learnWorkspace } from '../../core/service/learnWorkspace';
import { isAbortError } from '../../core/util/concurrency';
import { captureSessions } from '../capture';
import { chooseRoles } from '../llm/providerChoice';
import { openProposalDiff, proposalUri } from '../review/proposalDocuments';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';

export interface LearnCommandResult {
  proposalId: string;
  files: Array<{ path: string; uri: string }>;
}

/** Sessions above which a model-backed run asks first, showing what it will cost. */
const CONFIRM_ABOVE_SESSIONS = 20;

/** Combee: Learn from Recent Sessions — import new sessions, learn, and open the proposal as a diff. */
export function learnFromRecentSessions(services: Services): Promise<LearnCommandResult | undefined> {
  return runLearning(services, { background: false });
}

/**
 * One learning run over every workspace folder. Foreground: a cancellable notification, consent prompts allowed,
 * the proposal opens as a diff. Background: progress in the status bar only, never a consent prompt or a modal.
 */
export async function runLearning(services: Services, mode: { background: boolean }): Promise<LearnCommandResult | undefined> {
  const folders = workspaceFolderPaths();
  if (folders.length === 0) {
    if (!mode.background) void vscode.window.showWarningMessage('Combee learns per workspace folder: open a folder first.');
    return undefined;
  }
  if (services.running) {
    if (!mode.background) void vscode.window.showInformationMessage('Combee is already learning; its progress is in the status bar.');
    return undefined;
  }
  const settings = readSettings();
  const { roles, reason } = await chooseRoles(services, !mode.background);
  services.log.info(`learning${mode.background ? ' in the background' : ''} with ${reason} (${roles.info.provider}/${roles.info.model})`);
  const confirm = async (estimate: RunEstimate) => {
    if (roles.info.provider === 'offline' || estimate.sessions <= CONFIRM_ABOVE_SESSIONS) return true;
    if (mode.background) return true;
    const choice = await vscode.window.showInformationMessage(
      `Combee will learn from ${estimate.sessions} sessions with ${roles.info.model}: about ${estimate.calls} model calls and ${Math.round(estimate.inputTokens / 1000)}k input tokens${estimate.costUsd !== undefined ? ` (≈ $${estimate.costUsd.toFixed(2)})` : ''}.`,
      'Learn', 'Cancel',
    );
    return choice === 'Learn';
  };
  const location = mode.background ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
  services.setRunning(true);
  try {
    return await vscode.window.withProgress({ location, title: 'Combee: learning from recent sessions', cancellable: !mode.background }, async (progress, token) => {
      const controller = new AbortController();
      services.currentRun = controller;
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        progress.report({ message: 'importing sessions…' });
        const capture = await captureSessions(services, undefined, controller.signal, (message) => services.log.debug(message));
        let first: LearnCommandResult | undefined;
        for (const workspace of folders) {
          progress.report({ message: `learning for ${vscode.workspace.asRelativePath(workspace)}…` });
          const result = await learnWorkspace({
            store: services.store,
            proposals: services.proposals,
            workspace,
            ...roles,
            provider: roles.info,
            playbookPath: settings.playbookPath,
            strategy: settings.strategy,
            batchSize: settings.batchSize,
            windowDays: settings.windowDays,
            budgetTokens: settings.condenseBudget,
            assets: { targets: settings.assetTargets, budgetTokens: settings.rulesBudget, skillRoots: settings.skillRoots },
            limits: { maxTokens: settings.maxTokensPerRun || undefined, maxCostUsd: settings.maxCostPerRun || undefined },
            pricePerMTokInput: settings.prices[roles.info.model]?.input,
            signal: controller.signal,
            confirm,
            onProgress: (message) => progress.report({ message }),
          });
          if (result.declined) {
            services.log.info(`learning for ${workspace} declined at the estimate`);
            continue;
          }
          for (const warning of result.record?.warnings ?? []) services.log.warn(warning);
          if (result.record?.status === 'stopped' && !mode.background) void vscode.window.showWarningMessage(`Combee stopped the run at its limit (${settings.maxTokensPerRun ? `${settings.maxTokensPerRun} tokens` : `$${settings.maxCostPerRun}`}); what was learned before is kept.`);
          services.log.info(`learned from ${result.traces.length} new session(s) in ${workspace} with ${roles.info.provider}/${roles.info.model}${result.record ? ` (run ${result.record.id}, ${result.record.status}, ${result.record.totals.calls} calls, ${result.record.totals.inputTokens + result.record.totals.outputTokens} tokens)` : ''}`);
          const proposal = result.proposal;
          if (!proposal || first) continue;
          first = { proposalId: proposal.id, files: proposal.files.map((f) => ({ path: f.path, uri: proposalUri(proposal, f, 'after').toString() })) };
          if (!mode.background) await openProposalDiff(proposal, proposal.files[0]);
        }
        services.notifyChanged();
        if (controller.signal.aborted || mode.background) return first;
        if (!first) {
          void vscode.window.showInformationMessage(capture.sessions === 0 ? 'Combee found no new sessions for this workspace.' : 'Combee learned nothing new from the recent sessions.');
        } else {
          void vscode.window.showInformationMessage(`Combee proposes ${first.files.length} file change(s), learned with ${roles.info.provider} (${roles.info.model}). Review the diff, then Accept or Reject.`);
        }
        return first;
      } catch (error) {
        if (isAbortError(error)) {
          services.log.info('learning cancelled; finished batches are kept');
          return undefined;
        }
        services.log.error(`learning failed: ${(error as Error).stack ?? error}`);
        if (!mode.background) void vscode.window.showErrorMessage(`Combee could not learn: ${(error as Error).message}`);
        return undefined;
      } finally {
        subscription.dispose();
        services.currentRun = undefined;
      }
    });
  } finally {
    services.setRunning(false);
  }
}
