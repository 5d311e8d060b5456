import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { captureSessions } from '../capture';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';

export const API_KEY_SECRET = 'combee.openai.apiKey';

/** Combee: Import Sessions… — pick any folder of agent sessions (an agent home or loose files). */
export async function importSessionsCommand(services: Services, folder?: unknown): Promise<number | undefined> {
  const picked = typeof folder === 'string' ? folder : (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Import sessions', title: 'Folder of agent sessions (e.g. ~/.claude or ~/.codex)' }))?.[0]?.fsPath;
  if (!picked) return undefined;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Combee: importing sessions', cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      const result = await captureSessions(services, [{ path: picked, agent: 'auto' }], controller.signal, (message) => progress.report({ message }));
      const redactions = result.summaries.reduce((n, s) => n + s.redactions, 0);
      void vscode.window.showInformationMessage(`Combee imported ${result.sessions} session(s), ${redactions} secret(s) redacted, ${result.warnings} warning(s) (see the Combee output).`);
      return result.sessions;
    } finally {
      subscription.dispose();
    }
  });
}

/** Combee: Set API Key — kept in VS Code's SecretStorage, never in settings or logs. */
export async function setApiKeyCommand(services: Services): Promise<void> {
  const key = await vscode.window.showInputBox({ title: 'OpenAI-compatible API key', prompt: 'Stored in VS Code SecretStorage. Leave empty to remove it.', password: true, ignoreFocusOut: true });
  if (key === undefined) return;
  if (key.trim() === '') await services.context.secrets.delete(API_KEY_SECRET);
  else await services.context.secrets.store(API_KEY_SECRET, key.trim());
  services.log.info(key.trim() ? 'API key stored in SecretStorage' : 'API key removed');
}

/** Combee: Open Playbook — the workspace playbook, or an offer to learn one. */
export async function openPlaybookCommand(): Promise<boolean> {
  const [workspace] = workspaceFolderPaths();
  if (!workspace) return false;
  const path = join(workspace, ...readSettings().playbookPath.split('/'));
  if (!existsSync(path)) {
    const choice = await vscode.window.showInformationMessage('This workspace has no Combee playbook yet.', 'Learn from Recent Sessions');
    if (choice) await vscode.commands.executeCommand('combee.learn');
    return false;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(path));
  return true;
}
