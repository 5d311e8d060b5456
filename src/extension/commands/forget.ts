import * as vscode from 'vscode';
import { firstLine } from '../../core/util/text';
import { workspaceFolderPaths, type Services } from '../services';

/**
 * Combee: Forget What Was Learned Here — the open folders' sessions count as new again and the rules rejected or
 * deleted there may be proposed again. Only Combee's own store changes (never a workspace file); asked first, unless
 * `confirmed` (the tests).
 */
export async function forgetLearningCommand(services: Services, confirmed?: unknown): Promise<boolean> {
  if (services.running) {
    void vscode.window.showWarningMessage('Combee is learning now; forget what was learned once the run is done.');
    return false;
  }
  const folders = workspaceFolderPaths();
  if (folders.length === 0) return false;
  if (confirmed !== true) {
    const answer = await vscode.window.showWarningMessage(
      `Forget what Combee learned in ${folders.length === 1 ? vscode.workspace.asRelativePath(folders[0]) : `${folders.length} folders`}?`,
      {
        modal: true,
        detail:
          'Its sessions are learned again as if new, and the rules you rejected or deleted here may be proposed again. Your files, proposals and past runs are kept.',
      },
      'Forget',
    );
    if (answer !== 'Forget') return false;
  }
  for (const folder of folders) await services.state.forgetLearning(folder);
  services.log.info(`forgot what was learned in ${folders.join(', ')}`);
  services.notifyChanged();
  return true;
}

/**
 * Sessions view: Forget — the session leaves the store and a later capture of the same session does not bring it back
 * (a session its agent went on in since is a new version and comes back). Asked first in a modal naming the
 * session, unless `confirmed` (the tests). Only Combee's own store changes.
 */
export async function forgetSessionCommand(services: Services, traceId: string, confirmed?: unknown): Promise<boolean> {
  if (services.running) {
    void vscode.window.showWarningMessage('Combee is learning now; forget a session once the run is done.');
    return false;
  }
  const summary = (await services.store.listSummaries()).find((s) => s.id === traceId);
  if (!summary) return false;
  const when = summary.startedAt ? ` of ${new Date(summary.startedAt).toLocaleString()}` : '';
  const name = `"${firstLine(summary.title ?? summary.id, 80)}" (${summary.agent}${when})`;
  if (confirmed !== true) {
    const answer = await vscode.window.showWarningMessage(
      `Forget the session ${name}?`,
      {
        modal: true,
        detail:
          "It is removed from Combee's store and is not imported again while its log stays as it is; runs already made from it keep what they learned. The agent's own log is not touched.",
      },
      'Forget',
    );
    if (answer !== 'Forget') return false;
  }
  const forgotten = await services.store.forgetTrace(traceId);
  if (!forgotten) return false;
  services.log.info(`forgot session ${traceId} ${name}`);
  services.notifyChanged();
  return true;
}
