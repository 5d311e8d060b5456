// A rule of the accepted playbook opened at its line, pinned and retired: each a proposal to review, written only when
// accepted.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, api, diffTabs, fileUri, learn, readText, run } from './combee';
import { writeSession } from './sessions';

describe('retiring a rule of the playbook', () => {
  before(async () => {
    await activate();
  });

  it('opens the rule at its line, pins it and retires it through proposals that write nothing until accepted', async () => {
    writeSession(
      'No, always run `pnpm lint:fix` before `pnpm commit`; the hook rejects the commit otherwise.',
      ['pnpm commit', 'Error: lint errors found'],
      ['pnpm lint:fix'],
    );
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    await run('combee.acceptProposal', result.proposalId, false, true);
    const playbook = await readText('.combee/playbook.md');
    const ruleId = /\[([^\]\s]+)\][^\n]*pnpm lint:fix/.exec(playbook)?.[1];
    assert.ok(ruleId, `the accepted playbook has the rule:\n${playbook}`);

    // a hover on [id] in AGENTS.md says what the rule is worth and links to where it came from
    const agents = await vscode.workspace.openTextDocument(fileUri('AGENTS.md'));
    const at = agents.getText().indexOf(`[${ruleId}]`);
    assert.ok(at >= 0, 'AGENTS.md cites the rule');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      agents.uri,
      agents.positionAt(at + 2),
    );
    const hoverText = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
      .join('\n');
    assert.match(hoverText, /\*\*new\*\* · helpful 0 · harmful 0/);
    assert.ok(hoverText.includes('command:combee.showRuleInTree'), hoverText);
    // and the playbook has a lens above the rule
    const playbookDocument = await vscode.workspace.openTextDocument(fileUri('.combee/playbook.md'));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      playbookDocument.uri,
    );
    // the rule's own line (a model mark above it names the rule too)
    const ruleLine = playbook.split('\n').findIndex((l) => l.startsWith(`[${ruleId}]`));
    const here = lenses.filter((l) => l.range.start.line === ruleLine).map((l) => l.command?.title);
    assert.deepEqual(here, ['new · +0 −0', 'Where it came from']);

    assert.equal(await run('combee.openRuleInPlaybook', ruleId), true);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor is open');
    assert.ok(editor.document.uri.fsPath.endsWith('playbook.md'), 'the playbook is open');
    assert.ok(editor.document.lineAt(editor.selection.active.line).text.includes(`[${ruleId}]`), 'at its line');
    assert.equal(await run('combee.openRuleInPlaybook', 'nope-99999'), false);

    // pinned: a mark line above the rule, proposed, then written once accepted; the hover says so and offers to unpin
    const pinId = await run('combee.pinRule', ruleId);
    assert.ok(pinId, 'a pin proposal');
    assert.equal(await readText('.combee/playbook.md'), playbook, 'nothing written before the accept');
    assert.deepEqual(
      (await api().loadProposal(pinId))?.files.map((f) => f.path),
      ['.combee/playbook.md'],
    );
    await run('combee.acceptProposal', pinId, false, true);
    const pinned = await readText('.combee/playbook.md');
    assert.match(pinned, new RegExp(`^pinned \\[${ruleId}\\] kept by the team`, 'm'));
    assert.equal(await run('combee.pinRule', ruleId), undefined, 'already pinned');
    const pinnedHover = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      agents.uri,
      agents.positionAt(at + 2),
    );
    const pinnedText = pinnedHover
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
      .join('\n');
    assert.match(pinnedText, /\*\*new · pinned\*\*/);
    assert.ok(pinnedText.includes('command:combee.unpinRule'), pinnedText);

    const retireId = await run('combee.retireRule', ruleId);
    assert.ok(retireId, 'a retire proposal');
    const proposal = await api().loadProposal(retireId);
    assert.deepEqual(
      proposal?.rules.map((r) => [r.id, r.op]),
      [[ruleId, 'REMOVE']],
    );
    assert.ok(
      diffTabs().some((t) => t.input.modified.toString().includes(retireId)),
      'its diff is open for review',
    );
    assert.equal(await readText('.combee/playbook.md'), pinned, 'nothing written before the accept');
    assert.equal(await run('combee.retireRule', 'nope-99999'), undefined);

    await run('combee.acceptProposal', retireId, false, true);
    const after = await readText('.combee/playbook.md');
    assert.ok(!after.includes(`[${ruleId}]`), 'gone from the playbook once accepted, its pin with it');
    assert.ok(!(await readText('AGENTS.md')).includes(`[${ruleId}]`), 'and from AGENTS.md');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
