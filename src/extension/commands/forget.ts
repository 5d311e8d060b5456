import * as vscode from 'vscode';
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
