import * as vscode from 'vscode';
import { removeEmptyFolders } from '../../core/service/review/createdFolders';
import { planRestore, planWrites } from '../../core/service/review/writePlan';
import type { ReviewWriter } from '../../core/service/review/writer';

/** An accept command's answer (tests read it): the review service's outcome, each write with its file's URI. */
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

/** Reads for the plan what the user has, and remembers it for applying (writePlan.ts). */
function editorReader() {
  const states = new Map<string, Awaited<ReturnType<typeof currentState>>>();
  return {
    read: async (target: string) => {
      const state = await currentState(vscode.Uri.file(target));
      states.set(target, state);
      return state.text;
    },
    stateOf: (target: string) => states.get(target),
  };
}

/** The whole text of an open or openable document replaced by `text`. */
async function replaceAll(edit: vscode.WorkspaceEdit, uri: vscode.Uri, text: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
}

async function save(uris: readonly vscode.Uri[]): Promise<void> {
  for (const uri of uris) await vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.save();
}

/**
 * The review service's writer in VS Code: the plan (writePlan.ts) read from the editor's buffers — unsaved edits win,
 * a file changed on disk since it was rendered is re-based — applied through one WorkspaceEdit (undoable) and saved.
 */
export function workspaceEditWriter(workspace: string): ReviewWriter {
  return {
    async write(changes) {
      const reader = editorReader();
      const { outcome, planned } = await planWrites(workspace, changes, reader.read);
      const edit = new vscode.WorkspaceEdit();
      const touched: vscode.Uri[] = [];
      const direct: Array<{ uri: vscode.Uri; text: string }> = [];
      for (const { target, write } of planned) {
        const uri = vscode.Uri.file(target);
        if (write.before === undefined)
          edit.createFile(uri, { ignoreIfExists: false, contents: new TextEncoder().encode(write.after) });
        else if (reader.stateOf(target)?.stale)
          // the editor still shows an older version than the disk: write the file itself; VS Code reloads the editor
          direct.push({ uri, text: write.after });
        else {
          await replaceAll(edit, uri, write.after);
          touched.push(uri);
        }
      }
      if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
      for (const { uri, text } of direct) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      await save(touched);
      for (const { write } of planned) {
        outcome.written.push(write.path);
        outcome.writes.push(write);
      }
      return outcome;
    },

    // a file edited since (saved or not) has the decision's hunks taken out around the edits; where the edits touch
    // what the decision wrote, nothing is put back
    async restore(writes) {
      const { outcome, steps } = await planRestore(workspace, writes, editorReader().read);
      const edit = new vscode.WorkspaceEdit();
      const toSave: vscode.Uri[] = [];
      for (const { target, step } of steps) {
        const uri = vscode.Uri.file(target);
        if (step.kind === 'delete') edit.deleteFile(uri, { ignoreIfNotExists: true });
        else if (step.kind === 'write') {
          await replaceAll(edit, uri, step.text);
          toSave.push(uri);
        }
      }
      if (edit.size > 0 && !(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
      await save(toSave);
      if (outcome.changedSince.length === 0)
        removeEmptyFolders(
          workspace,
          writes.flatMap((w) => w.folders ?? []),
        );
      return outcome;
    },
  };
}
