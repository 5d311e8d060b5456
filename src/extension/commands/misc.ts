import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { endpointOrigin } from '../../core/llm/endpoint';
import { tryResolveInWorkspace } from '../../core/trust/workspacePath';
import { captureSessions } from '../capture';
import { storeApiKey } from '../llm/apiKeys';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';

/** Combee: Import Sessions… — pick any folder of agent sessions (an agent home or loose files). */
export async function importSessionsCommand(services: Services, folder?: unknown): Promise<number | undefined> {
  const picked =
    typeof folder === 'string'
      ? folder
      : (
          await vscode.window.showOpenDialog({
            canSelectFolders: true,
            canSelectFiles: false,
            canSelectMany: false,
            openLabel: 'Import sessions',
            title: 'Folder of agent sessions (e.g. ~/.claude or ~/.codex)',
          })
        )?.[0]?.fsPath;
  if (!picked) return undefined;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Combee: importing sessions', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const result = await captureSessions(
          services,
          [{ path: picked, agent: 'auto' }],
          controller.signal,
          (message) => progress.report({ message }),
        );
        const redactions = result.summaries.reduce((n, s) => n + s.redactions, 0);
        void vscode.window.showInformationMessage(
          `Combee imported ${result.sessions} session(s), ${redactions} secret(s) redacted, ${result.warnings} warning(s) (see the Combee output).`,
        );
        return result.sessions;
      } finally {
        subscription.dispose();
      }
    },
  );
}

/**
 * Combee: Set API Key — for the endpoint in the user's settings, kept in VS Code's SecretStorage under that endpoint's
 * origin (never in settings or logs, never sent to another endpoint). `given` lets tests and scripts pass the key.
 */
export async function setApiKeyCommand(services: Services, given?: unknown): Promise<boolean> {
  const baseUrl = readSettings().openaiBaseUrl;
  const origin = endpointOrigin(baseUrl);
  const key =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({
          title: `API key for ${origin}`,
          prompt: `Used only for requests to ${origin} (combee.openai.baseUrl in your user settings). Stored in VS Code SecretStorage. Leave empty to remove it.`,
          password: true,
          ignoreFocusOut: true,
        });
  if (key === undefined) return false;
  await storeApiKey(services.context.secrets, baseUrl, key.trim() || undefined);
  const said = key.trim() ? `API key saved for ${origin}` : `API key for ${origin} removed`;
  services.log.info(said);
  void vscode.window.showInformationMessage(`Combee: ${said}.`);
  return true;
}

/** Combee: Open Playbook — the workspace playbook, or an offer to learn one. */
export async function openPlaybookCommand(): Promise<boolean> {
  const [workspace] = workspaceFolderPaths();
  if (!workspace) return false;
  const path = tryResolveInWorkspace(workspace, readSettings().playbookPath);
  if (path === undefined || !existsSync(path)) {
    const choice = await vscode.window.showInformationMessage(
      'This workspace has no Combee playbook yet.',
      'Learn from Recent Sessions',
    );
    if (choice) await vscode.commands.executeCommand('combee.learn');
    return false;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(path));
  return true;
}
