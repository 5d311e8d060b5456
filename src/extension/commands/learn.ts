import { describeContextCost } from '../../core/assets/contextCost';
import * as vscode from 'vscode';
import type { RunEstimate } from '../../core/learn/estimate';
import { isAbortError } from '../../core/util/concurrency';
import { captureSessions } from '../capture';
import { learnInWorker } from '../learnInWorker';
import { learnRequestFromSettings } from '../learnRequest';
import { chooseProvider, offlineChoice } from '../llm/providerChoice';
import {
  failedRunNotice,
  LEARN_ACTIONS,
  noSessionsNotice,
  type LearnAction,
  type LearnNotice,
} from '../../core/service/learnNotices';
import { openProposalDiff, proposalUri } from '../review/proposalDocuments';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings, type SettingProblem } from '../settings';
import { allowedInThisWorkspace } from '../trust';
import { enforcementItems } from '../../core/service/review/enforcementItems';

export interface LearnCommandResult {
  proposalId: string;
  files: Array<{ path: string; uri: string }>;
  /** The worker thread the run used (the extension host's own thread is 0). */
  workerThread: number;
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
export async function runLearning(
  services: Services,
  /** `offline`: this run with the offline learner, whatever the settings choose (a failed provider's way on). */
  mode: { background: boolean; windowDays?: number; offline?: boolean },
): Promise<LearnCommandResult | undefined> {
  const folders = workspaceFolderPaths();
  if (folders.length === 0) {
    if (!mode.background)
      void vscode.window.showWarningMessage('Combee learns per workspace folder: open a folder first.');
    return undefined;
  }
  // Restricted Mode: nothing is learned from an untrusted folder's point of view (its sessions stay listed).
  if (!allowedInThisWorkspace('learn', mode.background)) return undefined;
  if (services.running) {
    if (!mode.background)
      void vscode.window.showInformationMessage('Combee is already learning; its progress is in the status bar.');
    return undefined;
  }
  const problems: SettingProblem[] = [];
  const settings = readSettings(undefined, problems);
  for (const problem of problems) {
    services.log.warn(problem.message);
    if (!mode.background) void vscode.window.showWarningMessage(`Combee: ${problem.message}.`);
  }
  const choice = mode.offline ? offlineChoice() : await chooseProvider(services, !mode.background);
  const { info } = choice;
  services.log.info(
    `learning${mode.background ? ' in the background' : ''} with ${choice.reason} (${info.provider}/${info.model})`,
  );
  const confirm = async (estimate: RunEstimate) => {
    if (info.provider === 'offline' || estimate.sessions <= CONFIRM_ABOVE_SESSIONS) return true;
    if (mode.background) return true;
    const choice = await vscode.window.showInformationMessage(
      `Combee will learn from ${estimate.sessions} sessions with ${info.model}: about ${estimate.calls} model calls and ${Math.round(estimate.inputTokens / 1000)}k input tokens${estimate.costUsd !== undefined ? ` (≈ $${estimate.costUsd.toFixed(2)})` : ''}.`,
      'Learn',
      'Cancel',
    );
    return choice === 'Learn';
  };
  const location = mode.background ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
  services.setRunning(true);
  try {
    return await vscode.window.withProgress(
      { location, title: 'Combee: learning from recent sessions', cancellable: !mode.background },
      async (progress, token) => {
        const controller = new AbortController();
        services.currentRun = controller;
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          progress.report({ message: 'importing sessions…' });
          const capture = await captureSessions(services, undefined, controller.signal, (message) =>
            services.log.debug(message),
          );
          let first: LearnCommandResult | undefined;
          const failures: string[] = [];
          let outsideWindow = 0;
          let flaggedNote = '';
          let dropsNote = '';
          let replacedNote = '';
          let pendingNote = '';
          for (const workspace of folders) {
            progress.report({ message: `learning for ${vscode.workspace.asRelativePath(workspace)}…` });
            const result = await learnInWorker(
              services,
              workspace,
              choice,
              learnRequestFromSettings(settings, workspace, info.model, mode.windowDays ?? settings.windowDays),
              {
                onProgress: (message) => progress.report({ message }),
                onSnapshot: (snapshot) => services.setLiveRun(snapshot),
                confirm,
              },
              controller.signal,
            ).finally(() => services.setLiveRun(undefined));
            if (result.declined) {
              services.log.info(`learning for ${workspace} declined at the estimate`);
              continue;
            }
            const run = result.run;
            for (const warning of run?.warnings ?? []) services.log.warn(warning);
            if (run?.drops) dropsNote = ` ${run.drops} (Show Aggregation Tree for which).`;
            outsideWindow += result.outsideWindow ?? 0;
            if (run?.status === 'failed')
              failures.push(
                run.warnings.find((w) => w.startsWith('run failed:'))?.slice('run failed: '.length) ??
                  'the model calls failed',
              );
            if (run?.status === 'stopped' && !mode.background)
              void vscode.window.showWarningMessage(
                `Combee stopped the run at its limit (${settings.maxTokensPerRun ? `${settings.maxTokensPerRun} tokens` : `$${settings.maxCostPerRun}`}); what was learned before is kept.`,
              );
            services.log.info(
              `learned from ${result.sessions} new session(s) in ${workspace} with ${info.provider}/${info.model}${run ? ` (run ${run.id}, ${run.status}, ${run.calls} calls, ${run.tokens} tokens)` : ''}`,
            );
            const proposal = result.proposal ? await services.proposals.load(workspace, result.proposal.id) : undefined;
            if (proposal && result.superseded?.length) {
              replacedNote = ` It replaces proposal ${result.superseded.join(', ')}: its undecided rules are in it, under the same ids.`;
              services.log.info(`${proposal.id} supersedes ${result.superseded.join(', ')}`);
            }
            if (result.stillPending) {
              pendingNote = result.stillPending;
              services.log.info(`nothing new for ${workspace}: proposal ${result.stillPending} still waits for review`);
            }
            if (proposal?.targetReasons?.length)
              services.log.info(`${proposal.id} is rendered for ${proposal.targetReasons.join('; ')}`);
            if (proposal?.contextCost?.length)
              services.log.info(`${proposal.id}: ${describeContextCost(proposal.contextCost)}`);
            for (const e of proposal ? enforcementItems(proposal) : [])
              services.log.info(`${proposal?.id}: rule ${e.ruleId}: ${e.stops}; ${e.origin}`);
            if (!proposal || first) continue;
            const flagged = proposal.rules.filter((r) => r.flags.length > 0).length;
            // a held rule whose retirement is offered is decided on its REMOVE row
            const retiring = proposal.heldRules.filter((h) =>
              proposal.rules.some((r) => r.op === 'REMOVE' && r.id === h.id),
            ).length;
            const held = proposal.heldRules.length - retiring;
            if (flagged + held > 0)
              flaggedNote = ` ${flagged + held} rule(s) are flagged (warning icon in the Proposals view): they stay out of AGENTS.md and the other files unless you accept them by name.`;
            if (retiring > 0)
              flaggedNote += ` ${retiring} flagged rule(s) of the playbook are offered for retirement: accept to take them out of it.`;
            first = {
              proposalId: proposal.id,
              files: proposal.files.map((f) => ({ path: f.path, uri: proposalUri(proposal, f, 'after').toString() })),
              workerThread: result.thread,
            };
            if (!mode.background) await openProposalDiff(proposal, proposal.files[0]);
          }
          services.notifyChanged();
          if (controller.signal.aborted) return first;
          if (failures.length > 0) {
            // A failed run is never "nothing new": its sessions are kept for the next run.
            services.log.error(`learning failed: ${failures.join('; ')}`);
            if (!mode.background) void offer(services, failedRunNotice(failures[0], info.provider), 'error');
            if (!first) return undefined;
          }
          if (mode.background) return first;
          if (!first && outsideWindow > 0) {
            void explainWindow(services, outsideWindow, settings.windowDays);
          } else if (!first && capture.sessions === 0) {
            void offer(services, noSessionsNotice(), 'info');
          } else if (!first) {
            void vscode.window.showInformationMessage(
              `Combee learned nothing new from the recent sessions.${pendingNote ? ` Proposal ${pendingNote} still waits for review.` : ''}`,
            );
          } else {
            const message = `Combee proposes ${first.files.length} file change(s), learned with ${info.provider} (${info.model}). Review the diff, then Accept or Reject.${replacedNote}${flaggedNote}${dropsNote}`;
            void (flaggedNote
              ? vscode.window.showWarningMessage(message)
              : vscode.window.showInformationMessage(message));
          }
          return first;
        } catch (error) {
          if (isAbortError(error)) {
            services.log.info('learning cancelled; finished batches are kept');
            return undefined;
          }
          services.log.error(`learning failed: ${(error as Error).stack ?? error}`);
          if (!mode.background) void offer(services, failedRunNotice((error as Error).message, info.provider), 'error');
          return undefined;
        } finally {
          subscription.dispose();
          services.currentRun = undefined;
        }
      },
    );
  } finally {
    services.setRunning(false);
  }
}

/** A notice with its ways on (learnNotices.ts); the one chosen runs. */
async function offer(services: Services, notice: LearnNotice, kind: 'info' | 'error'): Promise<void> {
  services.lastLearnNotice = notice;
  const choice =
    kind === 'error'
      ? await vscode.window.showErrorMessage(notice.message, ...notice.actions)
      : await vscode.window.showInformationMessage(notice.message, ...notice.actions);
  if (choice) await runLearnAction(services, choice);
}

/** What each action of a Learn notice does. */
export async function runLearnAction(services: Services, action: LearnAction): Promise<unknown> {
  switch (action) {
    case LEARN_ACTIONS.importSessions:
      return vscode.commands.executeCommand('combee.importSessions');
    case LEARN_ACTIONS.addFolders:
      return vscode.commands.executeCommand('workbench.action.openSettings', 'combee.sources');
    case LEARN_ACTIONS.learnOffline:
      return runLearning(services, { background: false, offline: true });
    case LEARN_ACTIONS.setApiKey:
      return vscode.commands.executeCommand('combee.setApiKey');
    case LEARN_ACTIONS.showLog:
      return services.log.show();
    case LEARN_ACTIONS.retry:
      return vscode.commands.executeCommand('combee.learn');
  }
}

/** Sessions exist but are older than the window: say so, and offer the two ways to include them. */
async function explainWindow(services: Services, outsideWindow: number, windowDays: number): Promise<void> {
  const choice = await vscode.window.showInformationMessage(
    `Combee found no new sessions within ${windowDays} days of this workspace's newest one; ${outsideWindow} older session(s) were left out (combee.learn.windowDays).`,
    'Learn from All',
    'Change Setting',
  );
  if (choice === 'Change Setting')
    await vscode.commands.executeCommand('workbench.action.openSettings', 'combee.learn.windowDays');
  else if (choice === 'Learn from All') await runLearning(services, { background: false, windowDays: 0 });
}
