// A proposed rule followed into the aggregation tree: the command finds the run that made it and opens the tree on
// it (the webview's side, the lit path, is tested in Chromium by test/webview/run.mjs).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, api, learn, run } from './combee';
import { writeSession } from './sessions';

describe('following a rule into the aggregation tree', () => {
  before(async () => {
    await activate();
  });

  it('opens the tree on the run that made a proposed rule, and says so when no run made it', async () => {
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
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
