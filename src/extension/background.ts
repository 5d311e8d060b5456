import * as vscode from 'vscode';
import { createWorkspaceMatcher } from '../core/trace/workspaceMatch';
import { captureSessions } from './capture';
import { runLearning } from './commands/learn';
import { workspaceFolderPaths, type Services } from './services';
import { readSettings } from './settings';

const CHECK_EVERY_MS = 10 * 60_000;

/**
 * Background capture and learning (both off by default): every few minutes import new sessions, and when enough
 * unlearned ones have accumulated for this workspace, learn without any prompt or modal dialog.
 */
export function startBackground(services: Services): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  const tick = async () => {
    const settings = readSettings();
    if (!settings.backgroundCapture || busy || services.running) return;
    busy = true;
    try {
      await captureSessions(services);
      if (!settings.backgroundLearning) return;
      const inWorkspace = createWorkspaceMatcher(workspaceFolderPaths());
      const learned = new Set<string>();
      for (const ws of workspaceFolderPaths()) for (const id of Object.keys((await services.store.loadLearned(ws)).learned)) learned.add(id);
      const waiting = (await services.store.listTraces()).filter((t) => inWorkspace(t.cwd) && !learned.has(t.id)).length;
      if (waiting >= settings.backgroundThreshold) {
        services.log.info(`${waiting} new session(s) ≥ ${settings.backgroundThreshold}: learning in the background`);
        await runLearning(services, { background: true });
      }
    } catch (error) {
      services.log.warn(`background capture failed: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  };
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (!readSettings().backgroundCapture) return;
    timer = setInterval(() => void tick(), CHECK_EVERY_MS);
    void tick();
  };
  schedule();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('combee.capture.background') || e.affectsConfiguration('combee.learn.background')) schedule();
  });
  return new vscode.Disposable(() => {
    if (timer) clearInterval(timer);
    listener.dispose();
  });
}
