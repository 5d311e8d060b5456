import * as vscode from 'vscode';
import { isOpen } from '../core/assets/review';
import { describeStatus, reviewStatus } from '../core/service/review/status';
import { workspaceFolderPaths, type Services } from './services';
import { COMMANDS } from './commandIds';

export interface StatusBar extends vscode.Disposable {
  /** The item as shown once the updates asked for so far have run (tests; no peeking at the window). */
  shown(): Promise<{ text: string; visible: boolean }>;
}

/** Shows a run in progress, or how many files and rules wait for review (hidden when there is nothing to say). */
export function createStatusBar(services: Services): StatusBar {
  const item = vscode.window.createStatusBarItem('combee.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Combee';
  let visible = false;
  const show = (on: boolean) => {
    visible = on;
    if (on) item.show();
    else item.hide();
  };
  const update = async () => {
    if (services.running) {
      item.text = '$(sync~spin) Combee: learning';
      item.tooltip = 'Combee is learning from recent agent sessions';
      item.command = COMMANDS.showTree;
      show(true);
      return;
    }
    // Only what still waits counts, from the same decisions the files were written from: a file holding pending
    // rules is decided with them and is not counted again.
    const open = (await Promise.all(workspaceFolderPaths().map((ws) => services.proposals.list(ws))))
      .flat()
      .filter(isOpen);
    const status = reviewStatus(open);
    if (status.rules + status.files === 0) {
      show(false);
      return;
    }
    item.text = `$(lightbulb) Combee: ${describeStatus(status)}`;
    item.tooltip = `${describeStatus(status)} in ${status.proposals} proposal(s)`;
    item.command = COMMANDS.reviewProposals;
    show(true);
  };
  // one update at a time, in order: a slow older one must not overwrite a newer count
  let updating = Promise.resolve();
  const schedule = () => {
    updating = updating
      .then(update)
      .catch((error: Error) => services.log.warn(`status bar not updated: ${error.message}`));
  };
  schedule();
  const subscriptions = vscode.Disposable.from(
    item,
    services.onDidChange(schedule),
    services.onDidChangeRunning(schedule),
  );
  return {
    dispose: () => subscriptions.dispose(),
    shown: async () => {
      await updating;
      return { text: item.text, visible };
    },
  };
}
