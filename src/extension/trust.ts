import * as vscode from 'vscode';

/**
 * Restricted Mode (an untrusted folder): sessions are still listed and imported, but nothing is learned and nothing
 * is written to the workspace. Returns whether the action may go on; otherwise says why (unless quiet).
 */
export function allowedInThisWorkspace(action: string, quiet = false): boolean {
  if (vscode.workspace.isTrusted) return true;
  if (!quiet) {
    void vscode.window
      .showWarningMessage(
        `Combee does not ${action} in Restricted Mode: this folder is not trusted, so its settings and files are not used to learn or write anything. Trust the folder to ${action}.`,
        'Manage Workspace Trust',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
      });
  }
  return false;
}
