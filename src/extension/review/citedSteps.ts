import * as vscode from 'vscode';

// A transcript opened at cited steps shows them highlighted (the cursor alone is easy to miss in a long session): a
// whole-line decoration over each step's lines, marked in the overview ruler too. It stays while the transcript is
// open, and comes back when its editor is shown again (a decoration belongs to an editor, not to its document).

const DECORATION: vscode.DecorationRenderOptions = {
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  border: '1px solid',
  borderColor: new vscode.ThemeColor('editor.rangeHighlightBorder'),
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.rangeHighlightForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Full,
};

/** Line ranges (0-based, inclusive) of each step: from its heading to its last line, the blank line after left out. */
export function stepRanges(stepLines: ReadonlyMap<number, number>, lineCount: number, steps: readonly number[]) {
  const starts = [...stepLines.values()].sort((a, b) => a - b);
  const ranges: Array<{ start: number; end: number }> = [];
  for (const step of new Set(steps)) {
    const start = stepLines.get(step);
    if (start === undefined) continue;
    const next = starts.find((line) => line > start) ?? lineCount + 1;
    ranges.push({ start, end: Math.max(start, next - 2) });
  }
  return ranges.sort((a, b) => a.start - b.start);
}

export class CitedSteps implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType(DECORATION);
  /** The highlighted lines of each open transcript, by its URI. */
  private readonly cited = new Map<string, vscode.Range[]>();
  private readonly subscriptions = [
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.paint(e))),
    vscode.workspace.onDidCloseTextDocument((document) => this.cited.delete(document.uri.toString())),
  ];

  /** Highlights these lines of the editor's transcript (in place of what an earlier opening highlighted). */
  show(editor: vscode.TextEditor, lines: ReadonlyArray<{ start: number; end: number }>): void {
    const ranges = lines.map(({ start, end }) => new vscode.Range(start, 0, end, 0));
    this.cited.set(editor.document.uri.toString(), ranges);
    this.paint(editor);
  }

  /** What is highlighted in a transcript (the tests read it: the decorations themselves cannot be read back). */
  highlighted(uri: vscode.Uri): ReadonlyArray<{ start: number; end: number }> {
    return (this.cited.get(uri.toString()) ?? []).map((r) => ({ start: r.start.line, end: r.end.line }));
  }

  private paint(editor: vscode.TextEditor): void {
    const ranges = this.cited.get(editor.document.uri.toString());
    if (ranges) editor.setDecorations(this.decoration, ranges);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.decoration.dispose();
  }
}
