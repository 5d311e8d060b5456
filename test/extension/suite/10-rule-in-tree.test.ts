// A proposed rule followed into the aggregation tree, and one of its sessions opened at the cited step: the commands
// the tree and the views use (the webview's side — the lit path, the links — is tested in Chromium, test/webview).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, api, learn, run } from './combee';
import { writeSession } from './sessions';

describe('following a rule into the aggregation tree', () => {
  before(async () => {
    await activate();
  });

  it('opens the tree on the run that made a proposed rule, and its session at the cited step', async () => {
    writeSession(
      'No, always run `pnpm db:migrate` before `pnpm test:integration`; the schema is stale otherwise.',
      ['pnpm test:integration', 'Error: relation "orders" does not exist'],
      ['pnpm db:migrate'],
    );
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = await api().loadProposal(result.proposalId);
    const rule = proposal?.rules.find((r) => r.id);
    assert.ok(rule, 'a proposed rule with an id');
    assert.equal(await run('combee.showRuleInTree', rule.id), true);
    const treeTab = () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Combee: Aggregation Tree');
    for (let i = 0; i < 50 && !treeTab(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(treeTab(), 'the tree panel is open');
    assert.equal(await run('combee.showRuleInTree', 'nope-99999'), false);

    // a session the rule cites opens as a read-only transcript, at the cited step
    const evidence = rule.support[0];
    assert.ok(evidence, 'the rule cites a session');
    const step = evidence.steps[0];
    assert.equal(await run('combee.openSession', evidence.traceId, step), true);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.scheme, 'combee-session');
    assert.match(editor.document.lineAt(editor.selection.active.line).text, new RegExp(`^#${step} `));
    // the cited step is highlighted, all of its lines and no more
    const stepAt = (line: number) => /^#(\d+) /.exec(editor.document.lineAt(line).text)?.[1];
    const highlighted = (lines: ReadonlyArray<{ start: number; end: number }>) =>
      lines.map(({ start, end }) => {
        assert.ok(end >= start);
        for (let line = start + 1; line <= end; line++) assert.equal(stepAt(line), undefined, `line ${line}`);
        const after = end + 1 < editor.document.lineCount ? editor.document.lineAt(end + 1).text : '';
        assert.equal(after, '', 'the blank line after the step is left out');
        if (end + 2 < editor.document.lineCount) assert.ok(stepAt(end + 2), 'the next step is not highlighted');
        return Number(stepAt(start));
      });
    assert.deepEqual(highlighted(api().citedLines(editor.document.uri)), [step]);
    // several cited steps: each highlighted, the cursor at the first; a new opening replaces what was highlighted
    const other = [...editor.document.getText().matchAll(/^#(\d+) /gm)]
      .map((m) => Number(m[1]))
      .find((n) => n !== step);
    assert.ok(other !== undefined, 'the session has another step');
    const two = [other, step];
    assert.equal(await run('combee.openSession', evidence.traceId, two), true);
    const again = vscode.window.activeTextEditor;
    assert.equal(again?.document.uri.toString(), editor.document.uri.toString());
    assert.deepEqual(
      highlighted(api().citedLines(editor.document.uri)),
      [...new Set(two)].sort((a, b) => a - b),
    );
    assert.match(again.document.lineAt(again.selection.active.line).text, new RegExp(`^#${two[0]} `));
    assert.equal(await run('combee.openSession', 'claude-code:not-a-stored-session'), false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('a run in progress in the aggregation tree', () => {
  it('grows as its calls finish, and gives way to the recorded run when it ends', async () => {
    await activate();
    writeSession(
      'No, always run `pnpm icons:build` before `pnpm storybook:test`; the sprites are missing otherwise.',
      ['pnpm storybook:test', 'Error: sprite sheet not found'],
      ['pnpm icons:build'],
    );
    const seen: Array<number | undefined> = [];
    const subscription = api().onDidChangeLiveRun((nodes) => seen.push(nodes));
    try {
      assert.ok((await learn())?.proposalId, 'a proposal');
    } finally {
      subscription.dispose();
    }
    const counts = seen.filter((n): n is number => n !== undefined);
    assert.ok(counts.length >= 1, `the tree grew while the run went on: ${JSON.stringify(seen)}`);
    for (let i = 1; i < counts.length; i++) assert.ok(counts[i] > counts[i - 1], 'it only grows');
    assert.equal(seen.at(-1), undefined, 'and is gone once the run is recorded');
  });
});
