// A rule that contradicts a line of the team's own text, in the real VS Code: a review comment on that line (the
// Comments API), with the note and the line as the rule would have it (Apply Suggested Change puts it in), and a row
// in the Proposals view; it stays through other decisions and goes once the rule is decided or the line changed.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { activate, api, fileUri, learn, run } from './combee';
import { ClaudeSession } from './sessions';
import type { TreeSnapshot } from '../../../src/extension/views/treeSnapshot';

const TEAM_LINE = '- Build the docs with `yarn docs:build`.';

const labels = (nodes: TreeSnapshot[]): string[] =>
  nodes.flatMap((n) => [String(n.label ?? ''), ...labels(n.children ?? [])]);

describe('conflicts with the team’s text as review comments', () => {
  let agentsBefore = '';

  // the test saves the edited line itself: an auto-save racing that save fails it with "File Modified Since"
  const files = () => vscode.workspace.getConfiguration('files');
  before(async () => {
    await activate();
    await files().update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    agentsBefore = readFileSync(fileUri('AGENTS.md').fsPath, 'utf8');
  });

  after(async () => {
    writeFileSync(fileUri('AGENTS.md').fsPath, agentsBefore);
    await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('puts a comment on the line a proposed rule contradicts, until the rule is decided', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const p of await api().pendingProposals()) await run('combee.rejectProposal', p.id, true);
    writeFileSync(fileUri('AGENTS.md').fsPath, `${agentsBefore.trimEnd()}\n\n## Setup\n\n${TEAM_LINE}\n`);
    const lineNumber = readFileSync(fileUri('AGENTS.md').fsPath, 'utf8').split('\n').indexOf(TEAM_LINE);
    new ClaudeSession('9f000001-0000-4000-8000-000000000000')
      .user('update the docs for the cart module')
      .bash('yarn docs:build', 'error Command "docs:build" not found.', 1)
      .user('No, never use yarn in this repo; build the docs with `pnpm docs:build`.')
      .bash('pnpm docs:build', 'built 12 pages', 0)
      .write();
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = (await api().loadProposal(result.proposalId))!;
    const rule = proposal.rules.find((r) => /pnpm docs:build/.test(r.content ?? ''));
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
    // Apply Suggested Change at the line: the line takes the rule's words; saved, the conflict is settled
    const doc = await vscode.workspace.openTextDocument(fileUri('AGENTS.md'));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(lineNumber, 0, lineNumber, 0);
    // the line may hold more than one conflict: the rule is named
    assert.equal(await vscode.commands.executeCommand('combee.applyConflictSuggestion', rule.id), true);
    assert.equal(doc.lineAt(lineNumber).text, `- ${rule.content}`);
    assert.ok(await doc.save());
    assert.deepEqual(
      (await api().conflictThreads()).filter((t) => t.ruleId === rule.id),
      [],
      'the line no longer says otherwise',
    );
    // the team's line back as it was: the conflict is open again, until the rule is decided
    writeFileSync(fileUri('AGENTS.md').fsPath, `${agentsBefore.trimEnd()}\n\n## Setup\n\n${TEAM_LINE}\n`);
    assert.equal((await api().conflictThreads()).filter((t) => t.ruleId === rule.id).length, 1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.ok(await run('combee.rejectRule', proposal.id, rule.id));
    assert.deepEqual(
      (await api().conflictThreads()).filter((t) => t.ruleId === rule.id),
      [],
    );
    for (const p of await api().pendingProposals()) await run('combee.rejectProposal', p.id, true);
  });
});
