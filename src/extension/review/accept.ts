import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { FileChange, Proposal } from '../../core/assets/proposal';

export interface AcceptOutcome {
  written: string[];
  conflicts: string[];
}

async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Applies accepted files through one WorkspaceEdit (undoable) and saves them. A file whose content no longer
 * matches the proposal's base is left alone and reported as a conflict.
 */
export async function acceptFiles(proposal: Proposal, files: FileChange[]): Promise<AcceptOutcome> {
  const edit = new vscode.WorkspaceEdit();
  const outcome: AcceptOutcome = { written: [], conflicts: [] };
  const touched: vscode.Uri[] = [];
  for (const change of files) {
    const uri = vscode.Uri.joinPath(vscode.Uri.file(proposal.workspace), ...change.path.split('/'));
    const current = await currentText(uri);
    if (current === change.after) continue;
    const base = current === undefined ? null : hash(current);
    if (base !== change.baseHash) {
      outcome.conflicts.push(change.path);
      continue;
    }
    if (current === undefined) {
      edit.createFile(uri, { ignoreIfExists: false, contents: new TextEncoder().encode(change.after) });
    } else {
      const document = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), change.after);
      touched.push(uri);
    }
    outcome.written.push(change.path);
  }
  if (outcome.written.length > 0 && !(await vscode.workspace.applyEdit(edit))) {
    throw new Error('VS Code refused the edit');
  }
  for (const uri of touched) await vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.save();
  return outcome;
}
