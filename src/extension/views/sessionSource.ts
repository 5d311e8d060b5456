import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TraceStore } from '../../core/store/traceStore';

/**
 * Shows where a stored session was read from: the agent's own log, revealed in the system's file manager (its raw text
 * is the agent's, unredacted, so Combee never opens it itself). Where there is no file manager (a remote or web
 * window) the path is copied instead. A teammate's session has its log on their machine, which is said.
 */
export async function revealSessionSource(store: TraceStore, traceId: string): Promise<string | undefined> {
  const trace = await store.loadTrace(traceId);
  if (!trace) {
    void vscode.window.showInformationMessage(`Combee: session ${traceId} is not in the store (any more).`);
    return undefined;
  }
  if (trace.contributor) {
    void vscode.window.showInformationMessage(
      `Combee: this session came in a team bundle exported by "${trace.contributor}"; its log is on their machine.`,
    );
    return undefined;
  }
  const path = trace.source.path;
  if (!existsSync(path)) {
    void vscode.window.showInformationMessage(`Combee: the session's log is no longer at ${path}.`);
    return undefined;
  }
  if (vscode.env.uiKind === vscode.UIKind.Desktop && vscode.env.remoteName === undefined) {
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(path));
    return path;
  }
  await vscode.env.clipboard.writeText(path);
  void vscode.window.showInformationMessage(`Combee: copied the path of the session's log: ${path}`);
  return path;
}
