// A rule of the accepted playbook opened at its line, and retired: a proposal to review, written only when accepted.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, api, diffTabs, learn, readText, run } from './combee';
import { writeSession } from './sessions';

describe('retiring a rule of the playbook', () => {
  before(async () => {
    await activate();
  });

  it('opens the rule at its line, and retires it through a proposal that writes nothing until accepted', async () => {
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

    assert.equal(await run('combee.openRuleInPlaybook', ruleId), true);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor is open');
    assert.ok(editor.document.uri.fsPath.endsWith('playbook.md'), 'the playbook is open');
    assert.ok(editor.document.lineAt(editor.selection.active.line).text.includes(`[${ruleId}]`), 'at its line');
    assert.equal(await run('combee.openRuleInPlaybook', 'nope-99999'), false);

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
    assert.equal(await readText('.combee/playbook.md'), playbook, 'nothing written before the accept');
    assert.equal(await run('combee.retireRule', 'nope-99999'), undefined);

    await run('combee.acceptProposal', retireId, false, true);
    const after = await readText('.combee/playbook.md');
    assert.ok(!after.includes(`[${ruleId}]`), 'gone from the playbook once accepted');
    assert.ok(!(await readText('AGENTS.md')).includes(`[${ruleId}]`), 'and from AGENTS.md');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
