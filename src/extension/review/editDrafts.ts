import * as vscode from 'vscode';

// Edit Before Accepting edits a draft, never the workspace's file: the drafts live in memory under their own scheme,
// so saving one (by hand, or by files.autoSave) only keeps the draft. The accept is its own command.

export const EDIT_SCHEME = 'combee-edit';

export interface EditDraft {
  workspace: string;
  proposalId: string;
  /** The proposal file's path, workspace-relative. */
  path: string;
}

/** The draft's address: the proposal's id, then the file's path, so the tab reads as the file. */
export function draftUri(draft: EditDraft): vscode.Uri {
  return vscode.Uri.from({ scheme: EDIT_SCHEME, path: `/${draft.proposalId}/${draft.path}` });
}

export class EditDrafts implements vscode.FileSystemProvider {
  private readonly texts = new Map<string, { draft: EditDraft; data: Uint8Array; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /** Starts (or starts again) a draft of a proposal file with the given text. */
  open(draft: EditDraft, text: string): vscode.Uri {
    const uri = draftUri(draft);
    const known = this.texts.has(uri.toString());
    this.texts.set(uri.toString(), { draft, data: new TextEncoder().encode(text), mtime: Date.now() });
    if (known) this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    return uri;
  }

  draftOf(uri: vscode.Uri): EditDraft | undefined {
    return uri.scheme === EDIT_SCHEME ? this.texts.get(uri.toString())?.draft : undefined;
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  private entry(uri: vscode.Uri) {
    const found = this.texts.get(uri.toString());
    if (!found) throw vscode.FileSystemError.FileNotFound(uri);
    return found;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const { data, mtime } = this.entry(uri);
    return { type: vscode.FileType.File, ctime: mtime, mtime, size: data.byteLength };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.entry(uri).data;
  }

  /** Saving keeps the draft: nothing reaches the workspace. */
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const found = this.entry(uri);
    this.texts.set(uri.toString(), { ...found, data: content, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    this.forget(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Accept Edited and Discard above the draft's first line. */
export class EditDraftLens implements vscode.CodeLensProvider {
  constructor(
    private readonly drafts: EditDrafts,
    private readonly commands: { accept: string; discard: string },
  ) {}

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const draft = this.drafts.draftOf(document.uri);
    if (!draft) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: `$(check) Accept Edited ${draft.path}`,
        command: this.commands.accept,
        arguments: [document.uri],
      }),
      new vscode.CodeLens(top, { title: 'Discard Edit', command: this.commands.discard, arguments: [document.uri] }),
    ];
  }
}
