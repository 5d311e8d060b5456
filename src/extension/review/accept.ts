import * as vscode from 'vscode';
import type { FileChange } from '../../core/assets/proposal';
import { rebaseChange } from '../../core/assets/rebase';
import { missingFolders, removeEmptyFolders } from '../../core/service/review/createdFolders';
import { restoreStep } from '../../core/service/review/restore';
import type { RestoreOutcome, ReviewWriter } from '../../core/service/review/writer';
import { OutsideWorkspaceError, resolveInWorkspace } from '../../core/trust/workspacePath';

export interface AcceptOutcome {
  written: string[];
  /** Files whose path leaves the workspace (`..`, a symlink out): never written, with the reason. */
  refused: Array<{ path: string; reason: string }>;
  /** Files changed during review whose proposal was patched onto their new content. */
  rebased: string[];
  conflicts: string[];
  /** Why each conflicting file was not written, by path. */
  conflictReasons: Array<{ path: string; reason: string }>;
  /** Files that already held the change. */
  alreadyApplied: string[];
  /** What each written file held before (undefined: it did not exist) and after: what Undo puts back. */
  writes: Array<{ path: string; uri: vscode.Uri; before: string | undefined; after: string; folders?: string[] }>;
}

async function diskText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** What the user has: unsaved edits in an open editor win; otherwise the file on disk (an open editor may lag it). */
async function currentState(
  uri: vscode.Uri,
): Promise<{ text: string | undefined; document?: vscode.TextDocument; stale: boolean }> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document?.isDirty) return { text: document.getText(), document, stale: false };
  const text = await diskText(uri);
  return { text, document, stale: document !== undefined && document.getText() !== text };
}

/** The file a path names; throws OutsideWorkspaceError when it leads outside the workspace. */
function workspaceUri(workspace: string, path: string): vscode.Uri {
  return vscode.Uri.file(resolveInWorkspace(workspace, path));
}

/**
 * Applies accepted files through one WorkspaceEdit (undoable) and saves them, all of them or none: with any conflict
 * or refusal nothing is applied. A file with unsaved edits, or changed on disk since it was rendered, is re-based
 * (the change's hunks patched onto it); where they no longer fit it is a conflict.
 */
export async function acceptFiles(
  workspace: string,
  files: readonly FileChange[],
  options: { save: boolean } = { save: true },
): Promise<AcceptOutcome> {
  const edit = new vscode.WorkspaceEdit();
  const outcome: AcceptOutcome = {
    written: [],
    refused: [],
    rebased: [],
    conflicts: [],
    conflictReasons: [],
    alreadyApplied: [],
    writes: [],
  };
  const touched: vscode.Uri[] = [];
  const direct: Array<{ uri: vscode.Uri; text: string }> = [];
  for (const change of files) {
    let uri: vscode.Uri;
    try {
      uri = workspaceUri(workspace, change.path);
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      outcome.refused.push({ path: change.path, reason: error.message });
      continue;
    }
    const { text: current, stale } = await currentState(uri);
    const result = rebaseChange(change, current);
    if (result.kind === 'already-applied') {
      outcome.alreadyApplied.push(change.path);
      continue;
    }
    if (result.kind === 'conflict') {
      outcome.conflicts.push(change.path);
      outcome.conflictReasons.push({ path: change.path, reason: result.reason });
      continue;
    }
    if (current === undefined) {
      edit.createFile(uri, { ignoreIfExists: false, contents: new TextEncoder().encode(result.change.after) });
    } else if (stale) {
      // The editor still shows an older version than the disk: write the file itself; VS Code reloads the editor.
      direct.push({ uri, text: result.change.after });
    } else {
      const document = await vscode.workspace.openTextDocument(uri);
      edit.replace(
        uri,
        new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
        result.change.after,
      );
      touched.push(uri);
    }
    outcome.written.push(change.path);
    const folders = current === undefined ? missingFolders(workspace, change.path) : [];
    outcome.writes.push({
      path: change.path,
      uri,
      before: current,
      after: result.change.after,
      ...(folders.length > 0 ? { folders } : {}),
    });
    if (result.kind === 'rebased') outcome.rebased.push(change.path);
  }
  if (outcome.conflicts.length > 0 || outcome.refused.length > 0)
    return { ...outcome, written: [], rebased: [], writes: [] };
  if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  for (const { uri, text } of direct) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  if (options.save)
    for (const uri of touched)
      await vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.save();
  return outcome;
}

/**
 * Puts back what a decision wrote, through one WorkspaceEdit, all or nothing: a file edited since (saved or not) has
 * the decision's hunks taken out around the edits; where the edits touch what the decision wrote, nothing is put back.
 */
export async function undoWrites(workspace: string, writes: AcceptOutcome['writes']): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { reverted: [], rebased: [], changedSince: [] };
  const edit = new vscode.WorkspaceEdit();
  const toSave: vscode.Uri[] = [];
  for (const write of writes) {
    const { text } = await currentState(write.uri);
    const step = restoreStep(write, text);
    if (step.kind === 'conflict') {
      outcome.changedSince.push({ path: write.path, reason: step.reason });
      continue;
    }
    if (step.kind === 'nothing') continue;
    if (step.kind === 'delete') {
      edit.deleteFile(write.uri, { ignoreIfNotExists: true });
    } else {
      const document = await vscode.workspace.openTextDocument(write.uri);
      edit.replace(
        write.uri,
        new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
        step.text,
      );
      toSave.push(write.uri);
      if (step.rebased) outcome.rebased.push(write.path);
    }
    outcome.reverted.push(write.path);
  }
  if (outcome.changedSince.length > 0) return { ...outcome, reverted: [], rebased: [] };
  if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  for (const uri of toSave)
    await vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.save();
  removeEmptyFolders(
    workspace,
    writes.flatMap((w) => w.folders ?? []),
  );
  return outcome;
}

/** The review service's writer in VS Code: the editor's buffers (unsaved edits re-based onto), undoable. */
export function workspaceEditWriter(workspace: string): ReviewWriter {
  return {
    async write(changes) {
      const outcome = await acceptFiles(workspace, changes);
      return {
        written: outcome.written,
        alreadyApplied: outcome.alreadyApplied,
        rebased: outcome.rebased,
        conflicts: outcome.conflictReasons,
        refused: outcome.refused,
        writes: outcome.writes.map(({ path, before, after, folders }) => ({ path, before, after, folders })),
      };
    },
    restore: (writes) =>
      undoWrites(
        workspace,
        writes.map((w) => ({ ...w, uri: workspaceUri(workspace, w.path) })),
      ),
  };
}
