// Edit Before Accepting in the real VS Code, with files.autoSave on (as every browser-hosted VS Code has it) and off:
// the proposed file opens as a draft, saving it writes nothing and decides nothing, and Accept Edited (its CodeLens)
// carries a reworded rule into the playbook and every agent file.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, api, learn, readText, run } from './combee';
import { writeSession } from './sessions';

const PLAYBOOK = '.combee/playbook.md';

/** A workspace file's text, undefined when there is none. */
const readOrNone = (rel: string) =>
  readText(rel).then(
    (text) => text,
    () => undefined,
  );

/** The draft's next save, by hand or by auto-save. */
function nextSave(doc: vscode.TextDocument): Promise<void> {
  return new Promise((resolve) => {
    const listener = vscode.workspace.onDidSaveTextDocument((saved) => {
      if (saved.uri.toString() !== doc.uri.toString()) return;
      listener.dispose();
      resolve();
    });
  });
}

describe('edit before accepting: a draft, and an explicit accept', () => {
  before(async () => {
    await activate();
  });

  after(async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await files.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
  });

  for (const autoSave of ['afterDelay', 'off'] as const)
    it(`files.autoSave "${autoSave}": saving keeps the draft; Accept Edited writes the reworded rule everywhere`, async () => {
      const files = vscode.workspace.getConfiguration('files');
      await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
      await files.update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const p of await api().pendingProposals()) await run('combee.rejectProposal', p.id, true);
      writeSession(
        'Please always regenerate the docs examples after changing them.',
        ['pnpm guide:test', 'Error: guide examples out of date'],
        ['pnpm guide:gen'],
      );
      const result = await learn();
      assert.ok(result?.proposalId, 'a proposal');
      const proposal = (await api().loadProposal(result.proposalId))!;
      const rule = proposal.rules.find((r) => /pnpm guide:gen/.test(r.content ?? ''));
      assert.ok(rule?.content, JSON.stringify(proposal.rules.map((r) => r.content)));
      assert.ok(
        proposal.files.some((f) => f.path === 'AGENTS.md' && f.after.includes(rule.content!)),
        'AGENTS.md is proposed with the rule',
      );
      const [playbookBefore, agentsBefore] = [await readOrNone(PLAYBOOK), await readText('AGENTS.md')];

      assert.ok(await run('combee.editProposal', proposal.id, PLAYBOOK));
      const doc = vscode.window.activeTextEditor?.document;
      assert.equal(doc?.uri.scheme, 'combee-edit', 'the draft is open, not the workspace file');
      const text = doc.getText();
      const at = text.indexOf(rule.content);
      assert.ok(at >= 0, text);
      const reworded = 'Run `pnpm guide:gen` whenever the guide examples change, then `pnpm guide:test`.';
      const saved = nextSave(doc);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + rule.content.length)), reworded);
      assert.ok(await vscode.workspace.applyEdit(edit));
      // auto-save saves it in a moment; without it, the user saves by hand
      if (autoSave === 'off') assert.ok(await doc.save());
      await saved;
      assert.equal(await readOrNone(PLAYBOOK), playbookBefore, 'saving wrote nothing');
      assert.equal(await readText('AGENTS.md'), agentsBefore);
      const waiting = (await api().loadProposal(proposal.id))!;
      assert.equal(waiting.status, 'pending', 'saving decided nothing');
      assert.ok(waiting.files.some((f) => f.path === PLAYBOOK));

      const lenses =
        (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
      const accept = lenses.find((l) => l.command?.title.includes('Accept Edited'))?.command;
      assert.ok(accept, JSON.stringify(lenses.map((l) => l.command?.title)));
      await vscode.commands.executeCommand(accept.command, ...(accept.arguments ?? []));

      for (const path of [PLAYBOOK, 'AGENTS.md']) {
        const now = await readText(path);
        assert.ok(now.includes(reworded), `${path} holds the reworded rule:\n${now}`);
        assert.ok(!now.includes(rule.content), `${path} no longer holds the proposed words`);
      }
      const decided = (await api().loadProposal(proposal.id))!;
      assert.ok(decided.reviewed.files.some((f) => f.path === PLAYBOOK && f.decision === 'accepted'));
      assert.equal(decided.reviewed.rules.find((r) => r.id === rule.id)?.content, reworded);
      // whatever is left to review is proposed on top of the edit, never taking it back
      for (const f of decided.files) assert.ok(!f.diff.includes(rule.content), f.diff);
      assert.ok(
        !vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'combee-edit'),
        'the draft closed',
      );
      // a decision like any other: Undo puts every file back
      const undone = await run('combee.undoDecision');
      assert.deepEqual(undone?.changedSince, []);
      assert.equal(await readOrNone(PLAYBOOK), playbookBefore);
      assert.equal(await readText('AGENTS.md'), agentsBefore);
      await run('combee.rejectProposal', proposal.id, true);
    });
});
