// The Sessions view's context menu: Show in Tree opens the aggregation tree on the run that learned the session, and
// Forget removes it from the store for good (a capture of the same session does not bring it back).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeSnapshot } from '../../../src/extension/views/treeSnapshot';
import { activate, api, captureHome, learn, run, sessionsViewItems } from './combee';
import { ClaudeSession } from './sessions';

const treeTab = () =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Combee: Aggregation Tree');

describe("Sessions view: a session's context menu", () => {
  before(activate);

  it('Show in Tree opens the tree on the run that learned the session; a session no run learned says so', async () => {
    const id = new ClaudeSession('9d000001-0000-4000-8000-000000000000')
      .user('Please fix the invoice totals.')
      .bash('pnpm invoices:test', 'Error: prisma client missing', 1)
      .user('No, run `pnpm db:generate` before `pnpm invoices:test`; the client is stale otherwise.')
      .bash('pnpm db:generate', 'ok', 0)
      .bash('pnpm invoices:test', 'ok', 0)
      .write();
    assert.ok((await learn())?.proposalId, 'a proposal');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // a proposed rule's tooltip (its hover in the Proposals view): its sessions a list of their own, a plain plural,
    // notes with a codicon rather than a glyph the editor font may lack
    const flat = (nodes: TreeSnapshot[]): TreeSnapshot[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const rules = flat(await api().viewItems('proposals', { resolved: true })).filter((n) =>
      n.tooltip?.includes('Supported by'),
    );
    assert.ok(rules.length > 0, 'a pending rule with its tooltip');
    for (const rule of rules) {
      const tooltip = rule.tooltip!;
      assert.equal(rule.tooltipIcons, true, 'theme icons render');
      const heading = /Supported by (\d+) (sessions?)( from \d+ people)?:\n\n- \S/.exec(tooltip);
      assert.ok(heading, tooltip);
      assert.equal(heading[2], heading[1] === '1' ? 'session' : 'sessions');
      assert.doesNotMatch(tooltip, /session\(s\)|ⓘ/);
    }
    const node = (await sessionsViewItems()).find((n) => n.id === id);
    assert.ok(node, `${id} is listed`);
    assert.equal(node.contextValue, 'combee.session.learned');
    // as the menu runs it: with the tree node's id
    assert.equal(await run('combee.showSessionInTree', id), true);
    for (let i = 0; i < 50 && !treeTab(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(treeTab(), 'the tree panel is open');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await run('combee.showSessionInTree', 'claude-code:never-learned'), false);
    assert.equal(treeTab(), undefined, 'no panel for a session no run learned');
  });

  it('Forget removes the session from the store and the view, and the next capture does not bring it back', async () => {
    const id = new ClaudeSession('9d000002-0000-4000-8000-000000000000')
      .user('Rename the shipping module, please.')
      .bash('pnpm shipping:test', 'ok', 0)
      .write();
    await run('combee.importSessions', captureHome());
    assert.ok((await api().sessionIds()).includes(id));
    // the modal is answered by the test (its text names the session; see forgetSessionCommand)
    assert.equal(await run('combee.forgetSession', id, true), true);
    assert.ok(!(await api().sessionIds()).includes(id), 'gone from the store');
    assert.ok(!(await sessionsViewItems()).some((n) => n.id === id), 'gone from the view');
    await run('combee.importSessions', captureHome());
    assert.ok(!(await api().sessionIds()).includes(id), 'not brought back by the next capture');
    assert.equal(await run('combee.forgetSession', id, true), false, 'nothing left to forget');
  });
});
