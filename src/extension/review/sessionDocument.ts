import * as vscode from 'vscode';
import type { TraceStore } from '../../core/store/traceStore';
import { transcript } from '../../core/trace/transcript';

export const SESSION_SCHEME = 'combee-session';

/** `combee-session:/<trace id>.txt`: the stored (redacted) session as a read-only transcript. */
export function sessionUri(traceId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SESSION_SCHEME, path: `/${encodeURIComponent(traceId)}.txt` });
}

function traceIdOf(uri: vscode.Uri): string {
  return decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.txt$/, ''));
}

export class SessionContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: TraceStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const trace = await this.store.loadTrace(traceIdOf(uri));
    return trace ? transcript(trace).text : `Session ${traceIdOf(uri)} is not in Combee's store (any more).`;
  }
}

/** Opens a stored session's transcript at a step; `false` when the store does not hold it. */
export async function openSession(store: TraceStore, traceId: string, step?: number): Promise<boolean> {
  const trace = await store.loadTrace(traceId);
  if (!trace) {
    void vscode.window.showInformationMessage(`Combee: session ${traceId} is not in the store (any more).`);
    return false;
  }
  const line = step === undefined ? 0 : (transcript(trace).stepLines.get(step) ?? 0);
  const document = await vscode.workspace.openTextDocument(sessionUri(traceId));
  const at = new vscode.Position(line, 0);
  await vscode.window.showTextDocument(document, {
    preview: true,
    selection: new vscode.Range(at, at),
    viewColumn: vscode.ViewColumn.Beside,
  });
  return true;
}
