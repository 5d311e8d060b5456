import * as vscode from 'vscode';
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

/** Combee: Learn from Recent Sessions — import new sessions, learn, and open the proposal as a diff. */
export async function learnFromRecentSessions(services: Services): Promise<LearnCommandResult | undefined> {
  const folders = workspaceFolderPaths();
  if (folders.length === 0) {
    void vscode.window.showWarningMessage('Combee learns per workspace folder: open a folder first.');
    return undefined;
  }
  const settings = readSettings();
  const { roles, reason } = await chooseRoles(services, true);
  services.log.info(`learning with ${reason} (${roles.info.provider}/${roles.info.model})`);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Combee: learning from recent sessions', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
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
            signal: controller.signal,
            onProgress: (message) => progress.report({ message }),
          });
          for (const warning of result.record?.warnings ?? []) services.log.warn(warning);
          services.log.info(`learned from ${result.traces.length} new session(s) in ${workspace} with ${roles.info.provider}/${roles.info.model}${result.record ? ` (run ${result.record.id}, ${result.record.status})` : ''}`);
          const proposal = result.proposal;
          if (!proposal || first) continue;
          first = { proposalId: proposal.id, files: proposal.files.map((f) => ({ path: f.path, uri: proposalUri(proposal, f, 'after').toString() })) };
          await openProposalDiff(proposal, proposal.files[0]);
        }
        services.notifyChanged();
        if (controller.signal.aborted) return first;
        if (!first) {
          const message = capture.sessions === 0 ? 'Combee found no new sessions for this workspace.' : 'Combee learned nothing new from the recent sessions.';
          void vscode.window.showInformationMessage(message);
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
        void vscode.window.showErrorMessage(`Combee could not learn: ${(error as Error).message}`);
        return undefined;
      } finally {
        subscription.dispose();
      }
    },
  );
}
