// A rule that contradicts a line of the team's own text, in the real VS Code: a review comment on that line (the
// Comments API), with the note and the line as the rule would have it, and a row in the Proposals view; it stays
// through other decisions and goes once the rule is decided.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { activate, api, fileUri, learn, run } from './combee';
import { ClaudeSession } from './sessions';
import type { TreeSnapshot } from '../../../src/extension/views/treeSnapshot';

const TEAM_LINE = '- Install dependencies with `yarn install`.';
const RULE = 'This repo uses pnpm, never yarn. Use pnpm add.';

const labels = (nodes: TreeSnapshot[]): string[] =>
  nodes.flatMap((n) => [String(n.label ?? ''), ...labels(n.children ?? [])]);

describe('conflicts with the team’s text as review comments', () => {
  let agentsBefore = '';

  before(async () => {
    await activate();
    agentsBefore = readFileSync(fileUri('AGENTS.md').fsPath, 'utf8');
  });

  after(() => {
    writeFileSync(fileUri('AGENTS.md').fsPath, agentsBefore);
  });

  it('puts a comment on the line a proposed rule contradicts, until the rule is decided', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const p of await api().pendingProposals()) await run('combee.rejectProposal', p.id, true);
    writeFileSync(fileUri('AGENTS.md').fsPath, `${agentsBefore.trimEnd()}\n\n## Setup\n\n${TEAM_LINE}\n`);
    const lineNumber = readFileSync(fileUri('AGENTS.md').fsPath, 'utf8').split('\n').indexOf(TEAM_LINE);
    new ClaudeSession('9f000001-0000-4000-8000-000000000000')
      .user('add lodash to the cart module')
      .bash('yarn add lodash-es', 'success Saved 1 new dependency.', 0)
      .user(`No — ${RULE.charAt(0).toLowerCase()}${RULE.slice(1)}`)
      .bash('pnpm add lodash-es', 'done', 0)
      .write();
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = (await api().loadProposal(result.proposalId))!;
    const rule = proposal.rules.find((r) => /never yarn/i.test(r.content ?? ''));
    assert.ok(rule, JSON.stringify(proposal.rules.map((r) => r.content)));

    const threads = (await api().conflictThreads()).filter((t) => t.ruleId === rule.id);
    assert.equal(threads.length, 1, JSON.stringify(await api().conflictThreads()));
    const [thread] = threads;
    assert.equal(thread.path, 'AGENTS.md');
    assert.equal(thread.line, lineNumber);
    assert.equal(thread.outcome, 'overrules');
    assert.ok(thread.body.includes(`- ${TEAM_LINE}`) && thread.body.includes(`+ - ${rule.content}`), thread.body);
    assert.ok(
      labels(await api().viewItems('proposals')).includes(`CONFLICT ${rule.id}`),
      'a row in the Proposals view',
    );

    // another decision leaves it; the rule's own decision settles it
    const other = proposal.rules.find((r) => r.id !== rule.id);
    if (other) {
      await run('combee.rejectRule', proposal.id, other.id);
      assert.equal((await api().conflictThreads()).filter((t) => t.ruleId === rule.id).length, 1, 'still open');
    }
    assert.ok(await run('combee.rejectRule', proposal.id, rule.id));
    assert.deepEqual(
      (await api().conflictThreads()).filter((t) => t.ruleId === rule.id),
      [],
    );
    for (const p of await api().pendingProposals()) await run('combee.rejectProposal', p.id, true);
  });
});
