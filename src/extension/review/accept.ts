import * as vscode from 'vscode';
import type { FileChange, Proposal } from '../../core/assets/proposal';
import { rebaseChange } from '../../core/assets/rebase';
import { OutsideWorkspaceError, resolveInWorkspace } from '../../core/trust/workspacePath';

export interface AcceptOutcome {
  written: string[];
  /** Files whose path leaves the workspace (`..`, a symlink out): never written, with the reason. */
  refused: Array<{ path: string; reason: string }>;
  /** Files changed during review whose proposal was patched onto their new content. */
  rebased: string[];
  conflicts: string[];
}

async function diskText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** What the user has: unsaved edits in an open editor win; otherwise the file on disk (an open editor may lag it). */
async function currentState(uri: vscode.Uri): Promise<{ text: string | undefined; document?: vscode.TextDocument; stale: boolean }> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document?.isDirty) return { text: document.getText(), document, stale: false };
  const text = await diskText(uri);
  return { text, document, stale: document !== undefined && document.getText() !== text };
}

/** The file a proposal's path names; throws OutsideWorkspaceError when it leads outside the workspace. */
function workspaceUri(proposal: Proposal, path: string): vscode.Uri {
  return vscode.Uri.file(resolveInWorkspace(proposal.workspace, path));
}

/**
 * Applies accepted files through one WorkspaceEdit (undoable) and saves them. A file edited during review is re-based
 * (the proposal's hunks patched onto it); where they no longer fit it is left alone and reported as a conflict.
 */
export async function acceptFiles(proposal: Proposal, files: FileChange[], options: { save: boolean } = { save: true }): Promise<AcceptOutcome> {
  const edit = new vscode.WorkspaceEdit();
  const outcome: AcceptOutcome = { written: [], refused: [], rebased: [], conflicts: [] };
  const touched: vscode.Uri[] = [];
  const direct: Array<{ uri: vscode.Uri; text: string }> = [];
  for (const change of files) {
    let uri: vscode.Uri;
    try {
      uri = workspaceUri(proposal, change.path);
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      outcome.refused.push({ path: change.path, reason: error.message });
      continue;
    }
    const { text: current, stale } = await currentState(uri);
    const result = rebaseChange(change, current);
    if (result.kind === 'already-applied') continue;
    if (result.kind === 'conflict') {
      outcome.conflicts.push(change.path);
      continue;
    }
    if (current === undefined) {
      edit.createFile(uri, { ignoreIfExists: false, contents: new TextEncoder().encode(result.change.after) });
    } else if (stale) {
      // The editor still shows an older version than the disk: write the file itself; VS Code reloads the editor.
      direct.push({ uri, text: result.change.after });
    } else {
      const document = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), result.change.after);
      touched.push(uri);
    }
    outcome.written.push(change.path);
    if (result.kind === 'rebased') outcome.rebased.push(change.path);
  }
  if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  for (const { uri, text } of direct) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  if (options.save) for (const uri of touched) await vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.save();
  return outcome;
}
