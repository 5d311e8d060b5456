import * as vscode from 'vscode';
import type { Proposal } from '../../core/assets/proposal';
import { readWorkspaceFile } from '../../core/service/proposalFiles';
import { openConflicts, type OpenConflict } from '../../core/service/review/teamConflicts';
import { escapeMarkdown } from '../../core/eval/render';
import { tryResolveInWorkspace } from '../../core/trust/workspacePath';

// A conflict with the team's own text as a review comment on the team's line (VS Code's Comments API, as a pull
// request review shows one): the note and the line as the rule would have it. Threads follow the proposals: one
// appears with a conflict, and goes once the conflict is decided (or the line changed).

/** What a test (and the API) reads of a thread. */
export interface ConflictThreadView {
  path: string;
  /** 0-based. */
  line: number;
  label: string;
  body: string;
  ruleId: string;
  outcome: OpenConflict['outcome'];
}

const keyOf = (proposalId: string, c: OpenConflict) => `${proposalId}\u0000${c.ruleId}\u0000${c.path}\u0000${c.line}`;

/** The comment's text: what conflicts with the line, why, and the suggested change as a diff of the line. */
export function conflictBody(c: OpenConflict): string {
  const head =
    c.outcome === 'overrules'
      ? `**Rule ${c.ruleId}** of the pending Combee proposal contradicts this line: ${escapeMarkdown(c.reason)}. Accepted, it would overrule it.`
      : `**A lesson was left out** because this line says otherwise: ${escapeMarkdown(c.reason)}. If this line is out of date, change it and learn again.`;
  return [
    head,
    '',
    `> ${escapeMarkdown(c.content)}`,
    '',
    'Suggested change:',
    '',
    '```diff',
    `- ${c.line}`,
    `+ ${c.suggestion}`,
    '```',
  ].join('\n');
}

export class ConflictComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController('combee.teamConflicts', 'Combee review');
  private readonly threads = new Map<
    string,
    { thread: vscode.CommentThread; view: ConflictThreadView; suggestion: string; teamLine: string }
  >();

  /** Shows the open conflicts of these proposals; threads of conflicts no longer open go. */
  update(proposals: readonly Proposal[]): void {
    const seen = new Set<string>();
    for (const proposal of proposals)
      for (const c of openConflicts(proposal, (rel) => readWorkspaceFile(proposal.workspace, rel))) {
        const path = tryResolveInWorkspace(proposal.workspace, c.path);
        if (path === undefined) continue;
        const key = keyOf(proposal.id, c);
        seen.add(key);
        const range = new vscode.Range(c.lineNumber, 0, c.lineNumber, 0);
        const known = this.threads.get(key);
        if (known) {
          if (!known.thread.range?.isEqual(range)) known.thread.range = range;
          known.view.line = c.lineNumber;
          continue;
        }
        const body = conflictBody(c);
        const thread = this.controller.createCommentThread(vscode.Uri.file(path), range, [
          {
            body: new vscode.MarkdownString(body),
            mode: vscode.CommentMode.Preview,
            author: { name: 'Combee' },
          },
        ]);
        const label = c.outcome === 'overrules' ? `Conflicts with rule ${c.ruleId}` : 'A lesson left out for this line';
        thread.label = label;
        thread.canReply = false;
        thread.state = vscode.CommentThreadState.Unresolved;
        thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
        thread.contextValue = 'combee.teamConflict';
        this.threads.set(key, {
          thread,
          view: { path: c.path, line: c.lineNumber, label, body, ruleId: c.ruleId, outcome: c.outcome },
          suggestion: c.suggestion,
          teamLine: c.line,
        });
      }
    for (const [key, { thread }] of this.threads)
      if (!seen.has(key)) {
        thread.dispose();
        this.threads.delete(key);
      }
  }

  /**
   * Apply Suggested Change: the thread's line takes the suggested text, its indentation kept, as one edit of the
   * document the user saves (or undoes) as any other. The thread is the one given (its menu), else the one at the
   * cursor; of several there, the rule named, else the one picked. False when none.
   */
  async applySuggestion(target?: unknown): Promise<boolean> {
    const editor = vscode.window.activeTextEditor;
    const atCursor = [...this.threads.values()].filter(
      ({ thread }) =>
        editor !== undefined &&
        thread.uri.toString() === editor.document.uri.toString() &&
        thread.range?.start.line === editor.selection.active.line,
    );
    const given = [...this.threads.values()].find(({ thread }) => thread === target);
    const named = atCursor.filter((t) => typeof target !== 'string' || t.view.ruleId === target);
    const found =
      given ??
      (named.length <= 1
        ? named[0]
        : (
            await vscode.window.showQuickPick(
              named.map((t) => ({ label: t.suggestion, description: t.view.label, thread: t })),
              { placeHolder: 'Which suggested change?' },
            )
          )?.thread);
    if (!found?.thread.range) return false;
    const document = await vscode.workspace.openTextDocument(found.thread.uri);
    const line = document.lineAt(found.thread.range.start.line);
    // the file changed under the thread: nothing is replaced
    if (line.text.trim() !== found.teamLine) return false;
    const indent = /^\s*/.exec(line.text)?.[0] ?? '';
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, line.range, `${indent}${found.suggestion}`);
    return vscode.workspace.applyEdit(edit);
  }

  shown(): ConflictThreadView[] {
    return [...this.threads.values()].map((t) => ({ ...t.view }));
  }

  dispose(): void {
    for (const { thread } of this.threads.values()) thread.dispose();
    this.threads.clear();
    this.controller.dispose();
  }
}
