// Review in the real VS Code: accept or reject one rule, accept one file (and the rules it holds), unsaved edits
// during review re-based or reported, and rejected rules not proposed again (Edit Before Accepting: 14-edit-draft).
// Runs after the skeleton (file order).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { writeSession } from './sessions';
import { activate, api, diffTabs, fileUri, learn, readText, run } from './combee';

const read = readText;

async function learnAfresh() {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return learn();
}

async function proposal(id: string) {
  return api().loadProposal(id);
}

/**
 * Puts an edited document back as the disk has it, whatever editor is active (the revert command reverts the active
 * one, and a tab a decision opened may have taken its place): an unsaved edit left behind would be saved by the next
 * test's write of the file, markers and all.
 */
async function revertToDisk(doc: vscode.TextDocument, path: string): Promise<void> {
  // a closed document holds no edit (a dirty one is never closed without saving)
  if (doc.isClosed) return;
  const disk = await read(path);
  // the live document: one saved and shown in no editor may be closed and opened again under another object
  const live = await vscode.workspace.openTextDocument(doc.uri);
  if (live.getText() !== disk) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(live.uri, new vscode.Range(live.positionAt(0), live.positionAt(live.getText().length)), disk);
    await vscode.workspace.applyEdit(edit);
  }
  // once edited it is dirty, and a dirty document stays open until it is saved
  if (live.isDirty) assert.ok(await live.save(), `${path} saved as the disk had it`);
  assert.equal(await read(path), disk, `${path} unchanged on disk`);
  assert.ok(!live.isDirty, `${path}: no unsaved edit left`);
}

describe('review: per rule, per file, edits and conflicts', () => {
  before(async () => {
    await activate();
  });

  it('accepts one rule alone and keeps the rest of the proposal, re-rendered around it', async () => {
    writeSession(
      'No, never edit files in db/migrations/ by hand; always create a new migration.',
      ['pnpm api:test', 'Error: proto stubs are missing'],
      ['pnpm proto:gen'],
    );
    const result = await learnAfresh();
    assert.ok(result?.proposalId, 'a proposal');
    const before = await proposal(result.proposalId);
    const protoRule = before!.rules.find((r) => /pnpm proto:gen/.test(r.content ?? ''));
    const migrationRule = before!.rules.find((r) => /db\/migrations/.test(r.content ?? ''));
    assert.ok(protoRule && migrationRule, JSON.stringify(before!.rules.map((r) => r.content)));
    const outcome = await run('combee.acceptRule', result.proposalId, protoRule.id);
    assert.deepEqual(outcome!.conflicts, []);
    const playbook = await read('.combee/playbook.md');
    assert.match(playbook, /pnpm proto:gen/);
    assert.doesNotMatch(playbook, /db\/migrations/);
    const after = await proposal(result.proposalId);
    assert.equal(after!.status, 'partial');
    assert.ok(
      after!.rules.some((r) => /db\/migrations/.test(r.content ?? '')),
      'the other rule is still proposed',
    );
    assert.ok(!after!.rules.some((r) => /pnpm proto:gen/.test(r.content ?? '')), 'the accepted rule left the proposal');
  });

  it('rejects a rule; a new session saying the same brings it back for review, with a note of the rejection', async () => {
    const pending = await api().pendingProposals();
    const current = pending[0];
    const rule = current.rules.find((r) => /db\/migrations/.test(r.content ?? ''));
    assert.ok(await run('combee.rejectRule', current.id, rule!.id));
    writeSession(
      'No, never edit files in db/migrations/ by hand; always create a new migration.',
      ['pnpm web:test', 'Error: stale i18n bundle'],
      ['pnpm i18n:build'],
    );
    const next = await learnAfresh();
    assert.ok(next?.proposalId, 'the new lesson is proposed');
    const p = await proposal(next.proposalId);
    assert.ok(p!.rules.some((r) => /pnpm i18n:build/.test(r.content ?? '')));
    // judged on the first session only: the new one is new evidence, and the rule says what was decided
    const back = p!.rules.find((r) => /db\/migrations/.test(r.content ?? ''));
    assert.ok(back, 'new evidence brings the rule back for review');
    assert.ok(
      back.notes?.some((n) => /^rejected in review on \d{4}-\d\d-\d\d; proposed again from 1 new session$/.test(n)),
      JSON.stringify(back.notes),
    );
    assert.ok(await run('combee.rejectRule', p!.id, back.id));
  });

  it("re-bases onto AGENTS.md's unsaved edits during review, keeping them; the file takes the rule it holds", async () => {
    const [p] = await api().pendingProposals();
    assert.ok(p.files.some((f) => f.path === 'AGENTS.md'));
    const i18n = p.rules.find((r) => /pnpm i18n:build/.test(r.content ?? ''));
    assert.ok(i18n, JSON.stringify(p.rules.map((r) => r.content)));
    const doc = await vscode.workspace.openTextDocument(fileUri('AGENTS.md'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '<!-- reviewed by the team -->\n');
    await vscode.workspace.applyEdit(edit);
    assert.ok(doc.isDirty, 'the edit waits unsaved in the editor');
    const outcome = await run('combee.acceptFile', p.id, 'AGENTS.md');
    assert.deepEqual(outcome!.rebased, ['AGENTS.md']);
    const text = await read('AGENTS.md');
    assert.ok(text.startsWith('<!-- reviewed by the team -->\n# Acme Shop'), 'team edit kept');
    assert.match(text, /pnpm i18n:build/);
    assert.match(await read('.combee/playbook.md'), /pnpm i18n:build/, 'the rule AGENTS.md cites is in the playbook');
    const after = await proposal(p.id);
    assert.equal(after!.reviewed.rules.find((r) => r.id === i18n.id)?.decision, 'accepted');
  });

  it('Accept File over an unsaved edit right above the rule it adds: the edit is kept and the rule added', async () => {
    writeSession(
      'No, never bump versions by hand; run the release script.',
      ['pnpm lint:styles', 'Error: stylelint config missing'],
      ['pnpm styles:init'],
    );
    const result = await learnAfresh();
    assert.ok(result?.proposalId, 'a proposal');
    const p = await proposal(result.proposalId);
    const playbook = p!.files.find((f) => f.path === '.combee/playbook.md');
    assert.ok(playbook);
    // edit the context line right above the proposal's first added rule, unsaved: the file is decided through its
    // rules, rendered onto the text as it is now, so the team's edit stays and nothing is overwritten
    const lines = playbook.diff.split('\n');
    const added = lines.findIndex((l) => l.startsWith('+['));
    const context = lines
      .slice(0, added)
      .reverse()
      .find((l) => l.startsWith(' '));
    assert.ok(context, playbook.diff);
    const rule = /^\+\[([a-z]+-\d{5})\]/.exec(lines[added])![1];
    const doc = await vscode.workspace.openTextDocument(fileUri('.combee/playbook.md'));
    const at = doc.getText().indexOf(`${context.slice(1)}\n`);
    assert.ok(at >= 0, 'the context line is in the file');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.positionAt(at + context.length - 1), ' (reworded by the team)');
    await vscode.workspace.applyEdit(edit);
    const outcome = await run('combee.acceptFile', p!.id, '.combee/playbook.md');
    assert.deepEqual(outcome!.conflicts, []);
    assert.ok(outcome!.written.includes('.combee/playbook.md'), JSON.stringify(outcome));
    assert.ok(doc.getText().includes('(reworded by the team)'), 'the unsaved edit is kept');
    assert.ok(doc.getText().includes(`[${rule}]`), `the rule ${rule} is added`);
    // put the editor back as the disk has it, and drop what is left of the proposal, for the tests after this one
    await revertToDisk(doc, '.combee/playbook.md');
    await run('combee.rejectProposal', p!.id, true);
  });

  it('a real conflict: the lines AGENTS.md would change are edited in the editor; Accept File writes nothing, decides nothing', async () => {
    writeSession(
      'No, never commit generated clients; regenerate them in CI.',
      ['pnpm sdk:test', 'Error: generated client is out of date'],
      ['pnpm sdk:gen'],
    );
    const result = await learnAfresh();
    assert.ok(result?.proposalId, 'a proposal');
    const p = await proposal(result.proposalId);
    const agents = p!.files.find((f) => f.path === 'AGENTS.md');
    assert.ok(agents, JSON.stringify(p!.files.map((f) => f.path)));
    // every line the change keeps or removes (its hunks' context) is reworded, unsaved: no hunk fits any more
    const touched = new Set(
      agents.diff
        .split('\n')
        .filter((l) => /^[ -]/.test(l) && !l.startsWith('--- '))
        .map((l) => l.slice(1)),
    );
    assert.ok(touched.size > 0, agents.diff);
    const playbookBefore = await read('.combee/playbook.md');
    const agentsBefore = await read('AGENTS.md');
    const doc = await vscode.workspace.openTextDocument(fileUri('AGENTS.md'));
    const reworded = doc
      .getText()
      .split('\n')
      .map((line) => (touched.has(line) ? `${line} <!-- team -->` : line))
      .join('\n');
    assert.notEqual(reworded, doc.getText());
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), reworded);
    await vscode.workspace.applyEdit(edit);
    const outcome = await run('combee.acceptFile', p!.id, 'AGENTS.md');
    assert.deepEqual(outcome!.conflicts, ['AGENTS.md'], JSON.stringify(outcome));
    assert.match(outcome!.conflictReasons[0].reason, /AGENTS\.md changed where the proposal edits it/);
    assert.deepEqual(outcome!.written, []);
    assert.equal(await read('.combee/playbook.md'), playbookBefore, 'the playbook is not written without AGENTS.md');
    assert.equal(await read('AGENTS.md'), agentsBefore, 'nothing written to disk');
    assert.equal(doc.getText(), reworded, "the team's unsaved edit is left as it is");
    const after = await proposal(p!.id);
    assert.deepEqual(after!.reviewed, { files: [], rules: [] }, 'nothing decided');
    assert.equal(after!.status, 'pending');
    await revertToDisk(doc, 'AGENTS.md');
    assert.equal(await read('AGENTS.md'), agentsBefore);
    await run('combee.rejectProposal', p!.id, true);
  });
  it('after accepting one rule the open diff stays, showing what is left; Undo puts the files back and the proposal too', async () => {
    writeSession(
      'No, never hand-edit files under src/legacy/; port them to src/core/ instead.',
      ['pnpm e2e:smoke', 'Error: browser bundle is stale'],
      ['pnpm bundle:dev'],
    );
    const result = await learnAfresh();
    assert.ok(result?.proposalId, 'a proposal');
    const before = await proposal(result.proposalId);
    const bundleRule = before!.rules.find((r) => /pnpm bundle:dev/.test(r.content ?? ''));
    assert.ok(bundleRule, JSON.stringify(before!.rules.map((r) => r.content)));
    const playbookBefore = await read('.combee/playbook.md');
    const proposalDiffs = () => diffTabs().filter((t) => t.input.modified.scheme === 'combee-proposal');
    assert.ok(proposalDiffs().length > 0, 'learn opened the proposal diff');
    await run('combee.acceptRule', result.proposalId, bundleRule.id);
    assert.match(await read('.combee/playbook.md'), /pnpm bundle:dev/);
    const left = await proposal(result.proposalId);
    assert.ok(left!.files.length > 0, 'the other rule is still proposed');
    const stillOpen = proposalDiffs().filter((t) =>
      left!.files.some((f) => t.input.modified.path.endsWith(`/${f.path}`)),
    );
    assert.ok(stillOpen.length > 0, 'the diffs of files still in the proposal stay open');
    for (const tab of stillOpen) {
      const shown = await vscode.workspace.openTextDocument(tab.input.modified);
      const file = left!.files.find((f) => tab.input.modified.path.endsWith(`/${f.path}`));
      assert.equal(shown.getText(), file!.after, `${file!.path}: the open diff shows what is left of the proposal`);
    }
    const undone = await run('combee.undoDecision');
    assert.ok(undone && undone.reverted.length > 0, JSON.stringify(undone));
    assert.deepEqual(undone.changedSince, []);
    assert.equal(
      await read('.combee/playbook.md'),
      playbookBefore,
      'the playbook is byte-identical to before the accept',
    );
    const restored = await proposal(result.proposalId);
    assert.ok(
      restored!.rules.some((r) => r.id === bundleRule.id),
      'the rule is pending again',
    );
    await run('combee.rejectProposal', result.proposalId, true);
  });
});
