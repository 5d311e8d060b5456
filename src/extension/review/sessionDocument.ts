import * as vscode from 'vscode';
import type { TraceStore } from '../../core/store/traceStore';
import { transcript } from '../../core/trace/transcript';
import { stepRanges, type CitedSteps } from './citedSteps';

export const SESSION_SCHEME = 'combee-session';

/** Characters of a session's title kept in its tab. */
const TAB_TITLE_CHARS = 60;

/**
 * `combee-session:/<title>.txt?<trace id>`: the stored (redacted) session as a read-only transcript, its tab named by
 * the session's title. The title is only a label; the query names the session.
 */
export function sessionUri(traceId: string, title?: string): vscode.Uri {
  const label =
    (title ?? traceId)
      .replace(/[\\/\r\n\t]+/g, ' ')
      .trim()
      .slice(0, TAB_TITLE_CHARS) || 'session';
  return vscode.Uri.from({
    scheme: SESSION_SCHEME,
    path: `/${label}.txt`,
    query: encodeURIComponent(traceId),
  });
}

/** The session a transcript names (editors restored from before titles were used name it by their path). */
function traceIdOf(uri: vscode.Uri): string {
  if (uri.query) return decodeURIComponent(uri.query);
  return decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.txt$/, ''));
}

export class SessionContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: TraceStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const trace = await this.store.loadTrace(traceIdOf(uri));
    return trace ? transcript(trace).text : `Session ${traceIdOf(uri)} is not in Combee's store (any more).`;
  }
}

/**
 * Opens a stored session's transcript at the first of the cited steps, each of them highlighted; `false` when the store
 * does not hold it.
 */
export async function openSession(
  store: TraceStore,
  traceId: string,
  steps: readonly number[] = [],
  cited?: CitedSteps,
): Promise<boolean> {
  const trace = await store.loadTrace(traceId);
  if (!trace) {
    void vscode.window.showInformationMessage(`Combee: session ${traceId} is not in the store (any more).`);
    return false;
  }
  const { stepLines } = transcript(trace);
  const line = steps.length === 0 ? 0 : (stepLines.get(steps[0]) ?? 0);
  const document = await vscode.workspace.openTextDocument(sessionUri(traceId, trace.title));
  const at = new vscode.Position(line, 0);
  const editor = await vscode.window.showTextDocument(document, {
    preview: true,
    selection: new vscode.Range(at, at),
    viewColumn: vscode.ViewColumn.Beside,
  });
  cited?.show(editor, stepRanges(stepLines, document.lineCount, steps));
  return true;
}
