// Combee: Backtest Rules in the real VS Code: the earlier sessions learned in a worker, the rules replayed over the
// later ones, the page opened beside the proposal, and the figures in the proposed rules' tooltips.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeSnapshot } from '../../../src/extension/views/treeSnapshot';
import { activate, api, learn, pristineWorkspace, run, sessionsViewItems, workspaceFolder } from './combee';

const flat = (nodes: TreeSnapshot[]): TreeSnapshot[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
/** A tooltip's text as shown: MarkdownString.appendText escapes markup and keeps spaces as &nbsp;. */
const shown = (tooltip: string | undefined) => (tooltip ?? '').replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
/** A table cell's text as shown: escapes dropped, code spans' backticks too. */
const cellText = (cell: string) => cell.replace(/\\(.)/g, '$1').replace(/`/g, '');
/** The rows of the Markdown table whose header starts so. */
function tableRows(page: string, header: string): string[] {
  const lines = page.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  return start < 0 ? [] : lines.slice(start + 2, lines.indexOf('', start));
}

describe('backtest beside the proposal', () => {
  before(async () => {
    await activate();
    await pristineWorkspace();
  });

  it('opens the backtest as a read-only Markdown page with a row per rule, and puts the figures in the tooltips', async () => {
    // a proposal to review: this learn's, or one an earlier test left pending (a run with nothing new keeps it)
    const learned = (await learn())?.proposalId ?? (await api().pendingProposals())[0]?.id;
    assert.ok(learned, 'a proposal to review');
    const text = await run('combee.backtest');
    assert.ok(text, 'the backtest ran');
    assert.match(
      text,
      /^# Combee backtest\n\n\*\*(Would have prevented \d+ of \d+ mistakes? in the later sessions; \d+ rules? would have misled \d+ sessions?)\.\*\*/,
    );
    assert.match(text, /Learned from \d+ earlier sessions? .* replayed over \d+ later sessions?/);
    assert.match(text, /\| Rule \| Prevented \| Misled \| Agreed \| Untouched \| Content \|/);
    // the rows name the rules by the proposal's ids (or say the proposal does not hold them), never by the backtest's own
    const proposal = await api().loadProposal(learned);
    assert.ok(proposal);
    const proposed = new Set(proposal.rules.map((r) => r.id.replace(/-/g, '\\-')));
    const rows = tableRows(text, '| Rule |');
    assert.ok(rows.length > 0, text);
    for (const row of rows) assert.match(row, /^\| [^|]+ \| \d+ \| \d+ \| \d+ \| \d+ \| .+ \|$/);
    const ruleCells = rows.map((row) => row.split(' | ')[0].slice(2));
    for (const cell of ruleCells) assert.ok(proposed.has(cell) || cell === '*not proposed*', `${cell}\n${text}`);
    assert.ok(
      ruleCells.some((cell) => proposed.has(cell)),
      `the example sessions teach the tests' prerequisite, whichever half they fall in\n${text}`,
    );
    // the later sessions' mistakes name their sessions by title
    const titles = new Set((await sessionsViewItems()).map((item) => item.label));
    const mistakes = tableRows(text, '| Session |');
    assert.ok(mistakes.length > 0, text);
    for (const row of mistakes) {
      const cell = row.split(' | ')[0].slice(2);
      assert.ok(titles.has(cellText(cell)), `"${cell}" is a session's title: ${[...titles].join('; ')}`);
    }
    // rendered as the preview renders it: code spans are code, no literal backtick
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', text);
    assert.match(html, /<code>[^<]*pnpm[^<]*<\/code>/, html);
    assert.ok(!html.includes('`'), html);

    // the page is a virtual document of its own scheme, beside the editor, and the same text
    const uri = vscode.Uri.from({
      scheme: 'combee-backtest',
      path: '/backtest.md',
      query: new URLSearchParams({ ws: workspaceFolder().uri.fsPath }).toString(),
    });
    // the Markdown preview opens beside the proposal diff, in a group of its own
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const preview = () =>
      tabs().find((t) => t.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(t.input.viewType));
    for (let i = 0; i < 50 && !preview(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const diff = tabs().find((t) => t.input instanceof vscode.TabInputTextDiff);
    assert.ok(preview(), JSON.stringify(tabs().map((t) => t.label)));
    assert.equal(preview()?.label, 'Preview backtest.md');
    assert.notEqual(preview()?.group.viewColumn, diff?.group.viewColumn, 'beside the diff');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), text);
    assert.equal(document.languageId, 'markdown');

    // a proposed rule the backtest learned too carries its figures in its tooltip
    const items = flat(await api().viewItems('proposals', { resolved: true }));
    const withFigures = items.filter((i) =>
      /Backtest \(learned from \d+ earlier sessions?, replayed over \d+\): prevented \d+ · misled \d+ · agreed \d+ · untouched \d+/.test(
        shown(i.tooltip),
      ),
    );
    assert.ok(withFigures.length > 0, JSON.stringify(items.map((i) => [i.label, shown(i.tooltip)])));
    // each tooltip's figures are those of the row that names its rule
    for (const item of withFigures) {
      const [, p, m, a, u] = /prevented (\d+) · misled (\d+) · agreed (\d+) · untouched (\d+)/.exec(
        shown(item.tooltip),
      )!;
      const id = /^\S+ ([a-z]+-\d{5})$/.exec(item.label)?.[1] ?? '';
      assert.ok(
        rows.some((row) => row.startsWith(`| ${id.replace(/-/g, '\\-')} | ${p} | ${m} | ${a} | ${u} | `)),
        `${item.label}: no row of its own with its figures\n${text}`,
      );
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
