import * as vscode from 'vscode';
import { workspaceFolderPaths, type Services } from './services';

/** Shows a run in progress, or how many proposals wait for review (hidden when there is nothing to say). */
export function createStatusBar(services: Services): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('combee.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Combee';
  const update = async () => {
    if (services.running) {
      item.text = '$(sync~spin) Combee: learning';
      item.tooltip = 'Combee is learning from recent agent sessions';
      item.command = 'combee.showTree';
      item.show();
      return;
    }
    // A partly accepted proposal still waits for review.
    const pending = (await Promise.all(workspaceFolderPaths().map((ws) => services.proposals.list(ws)))).flat().filter((p) => (p.status === 'pending' || p.status === 'partial') && p.files.length > 0).length;
    if (pending === 0) {
      item.hide();
      return;
    }
    item.text = `$(lightbulb) Combee: ${pending} proposal${pending === 1 ? '' : 's'}`;
    item.tooltip = 'Review what Combee learned from your agents\' sessions';
    item.command = 'combee.reviewProposals';
    item.show();
  };
  void update();
  return vscode.Disposable.from(item, services.onDidChange(() => void update()), services.onDidChangeRunning(() => void update()));
}
