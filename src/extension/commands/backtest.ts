import * as vscode from 'vscode';
import { isAbortError } from '../../core/util/concurrency';
import { backtestInWorker } from '../learnInWorker';
import { chooseProvider, type ProviderChoice } from '../llm/providerChoice';
import { parseProposalUri } from '../review/proposalDocuments';
import { backtestUri } from '../review/backtestDocument';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';
import { allowedInThisWorkspace } from '../trust';

const OFFLINE: ProviderChoice = {
  spec: { kind: 'offline' },
  info: { provider: 'offline', model: 'combee-offline-miner' },
  reason: 'the offline learner',
};

/** The folder of the proposal diff in front, else the first workspace folder. */
function chosenWorkspace(folders: string[]): string {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
  const proposal = uri ? parseProposalUri(uri) : undefined;
  return proposal && folders.includes(proposal.workspace) ? proposal.workspace : folders[0];
}

/** Offline unless the learner the proposals use is a model and the user chooses to spend its calls here. */
async function backtestProvider(services: Services): Promise<ProviderChoice | undefined> {
  const choice = await chooseProvider(services, true);
  if (choice.info.provider === 'offline') return choice;
  const answer = await vscode.window.showInformationMessage(
    `Backtest with ${choice.info.model} (it learns the earlier half of the sessions again: model calls) or with the offline learner?`,
    choice.info.model,
    'Offline',
  );
  return answer === choice.info.model ? choice : answer === 'Offline' ? OFFLINE : undefined;
}

/**
 * Combee: Backtest Rules — learn from the earlier sessions in a worker, replay the rules over the later ones, and
 * show the figures beside the proposal. Returns the page's text (the tests read it).
 */
export async function backtestRules(services: Services): Promise<string | undefined> {
  const folders = workspaceFolderPaths();
  if (folders.length === 0) {
    void vscode.window.showWarningMessage('Combee backtests per workspace folder: open a folder first.');
    return undefined;
  }
  if (!allowedInThisWorkspace('backtest')) return undefined;
  const documents = services.backtestDocuments;
  if (!documents) return undefined;
  const workspace = chosenWorkspace(folders);
  const choice = await backtestProvider(services);
  if (!choice) return undefined;
  const settings = readSettings();
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Combee: backtesting rules', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const result = await backtestInWorker(
          services,
          workspace,
          choice,
          {
            playbookPath: settings.playbookPath,
            budgetTokens: settings.condenseBudget,
            aggregationCapacityTokens: settings.aggregationCapacity,
          },
          { onProgress: (message) => progress.report({ message }) },
          controller.signal,
        );
        return result.report;
      } catch (error) {
        if (isAbortError(error) || controller.signal.aborted) {
          services.log.info('backtest cancelled');
          return undefined;
        }
        services.log.error(`backtest failed: ${(error as Error).stack ?? error}`);
        void vscode.window.showErrorMessage(`Combee could not backtest: ${(error as Error).message}`);
        return undefined;
      } finally {
        subscription.dispose();
      }
    },
  );
  if (!report) return undefined;
  for (const warning of report.warnings) services.log.warn(`backtest: ${warning}`);
  services.log.info(`backtest of ${workspace} with ${choice.info.provider}/${choice.info.model}: ${report.summary}`);
  const uri = documents.set(report);
  services.notifyChanged(); // the Proposals view's tooltips carry the figures
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  } catch {
    // no Markdown preview in this editor: the page as text, beside
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
  return documents.provideTextDocumentContent(backtestUri(workspace));
}
