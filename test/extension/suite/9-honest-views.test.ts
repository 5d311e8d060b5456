// The views say what happened: a file accepted alone shows as accepted and leaves the status bar count, a session
// whose learning failed three times shows as given up, and a file the import left out shows under its reason.
// The views are read through the extension's viewItems hook (their own providers, item by item).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { useLoopbackEndpoint } from './loopbackModel';
import { captureHome, run } from './combee';
import { writeSession } from './sessions';
import { activate, learn, api, sessionsViewItems } from './combee';

const countOf = (text: string) => Number(/Combee: (\d+) to review/.exec(text)?.[1] ?? 0);

async function proposalNode(id: string) {
  const proposal = await api().loadProposal(id);
  const nodes = await api().viewItems('proposals');
  const node = nodes.find(
    (n) =>
      n.label === `Proposal ${proposal!.createdAt.slice(0, 16).replace('T', ' ')}` &&
      n.tooltip!.startsWith(`Run ${proposal!.runId} `),
  );
  assert.ok(node, `the proposal is in the view: ${JSON.stringify(nodes.map((n) => n.label))}`);
  return node;
}

describe('honest views: what was accepted, what failed, what was left out', () => {
  before(async () => {
    await activate();
  });

  it('Accept File of one file: that file shows as accepted, the others pending, and the status bar count drops by one', async () => {
    writeSession(
      'No, never run the e2e suite against production; use the staging URL.',
      ['pnpm e2e:run', 'Error: browsers are not installed'],
      ['pnpm e2e:install'],
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = await api().loadProposal(result.proposalId);
    assert.ok(
      proposal!.files.length >= 2 && proposal!.files.some((f) => f.path === 'AGENTS.md'),
      JSON.stringify(proposal!.files.map((f) => f.path)),
    );
    const before = await api().statusBar();
    assert.ok(before.visible && countOf(before.text) > 0, before.text);
    const fresh = await proposalNode(result.proposalId);
    assert.ok(
      fresh.children.every((c) => !/accepted|rejected/.test(c.contextValue ?? '')),
      'nothing decided yet',
    );

    const outcome = await run('combee.acceptFile', result.proposalId, 'AGENTS.md');
    assert.deepEqual(outcome!.conflicts, []);
    const node = await proposalNode(result.proposalId);
    const files = node.children.filter((c) => c.contextValue!.startsWith('combee.proposalFile'));
    const agents = files.find((c) => c.label === 'AGENTS.md');
    assert.equal(
      agents!.contextValue,
      'combee.proposalFile.accepted',
      'no Accept File action on it (package.json menus)',
    );
    assert.equal(agents!.icon, 'check');
    assert.match(agents!.description ?? '', /^accepted/);
    const others = files.filter((c) => c !== agents);
    assert.equal(others.length, proposal!.files.length - 1);
    for (const file of others) assert.equal(file.contextValue, 'combee.proposalFile', `${file.label} is still pending`);
    const rules = node.children.filter(
      (c) => c.contextValue!.startsWith('combee.proposalRule') && !c.label.startsWith('HELD '),
    );
    assert.ok(
      rules.length > 0 && rules.every((r) => r.contextValue === 'combee.proposalRule'),
      'the rules are still pending: AGENTS.md alone takes none',
    );
    assert.match(
      node.description ?? '',
      new RegExp(
        `${proposal!.files.length - 1} of ${proposal!.files.length} files · ${rules.length} of ${rules.length} rules? pending`,
      ),
    );
    const after = await api().statusBar();
    assert.equal(countOf(after.text), countOf(before.text) - 1, `${before.text} → ${after.text}`);

    // Accepting the playbook file takes its rules: they show as accepted too, and leave the count.
    await run('combee.acceptFile', result.proposalId, '.combee/playbook.md');
    const taken = await proposalNode(result.proposalId).catch(() => undefined);
    if (taken) {
      const decided = taken.children.filter(
        (c) => c.contextValue!.startsWith('combee.proposalRule') && !c.label.startsWith('HELD '),
      );
      assert.ok(
        decided.every((r) => r.contextValue === 'combee.proposalRule.accepted' && r.icon === 'check'),
        JSON.stringify(decided),
      );
    }
    const last = await api().statusBar();
    assert.ok(countOf(last.text) <= countOf(after.text) - 1 - rules.length, `${after.text} → ${last.text}`);
  });

  it('a file the last import left out shows under its reason in the Sessions view', async () => {
    const dir = join(captureHome(), 'projects', 'left-out');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'empty-session.jsonl'), '');
    writeFileSync(join(dir, 'notes.jsonl'), '{"hello":"world"}\n');
    await run('combee.importSessions', captureHome());
    const [first] = await api().viewItems('sessions');
    assert.match(first.label, /^\d+ files? not imported$/);
    assert.equal(first.contextValue, 'combee.skipped');
    const empty = first.children.find((c) => /^\d+ empty$/.test(c.label));
    assert.ok(empty, JSON.stringify(first.children.map((c) => c.label)));
    assert.ok(
      empty.children.some((c) => c.label === 'empty-session.jsonl' && c.description === dir),
      JSON.stringify(empty.children),
    );
    const notSession = first.children.find((c) => /^\d+ not a session$/.test(c.label));
    assert.ok(notSession?.tooltip?.includes(join(dir, 'notes.jsonl')), JSON.stringify(notSession));
    const total = first.children.reduce((n, c) => n + Number(c.label.split(' ')[0]), 0);
    assert.equal(first.label, `${total} file${total === 1 ? '' : 's'} not imported`);
  });

  describe('a session whose learning fails', () => {
    const model = useLoopbackEndpoint({ failWith: 401 });

    it('shows each failure with its count and reason, then as given up after 3', async () => {
      const id = writeSession(
        'Never push to main directly; open a pull request.',
        ['pnpm release:check', 'Error: changelog entry missing'],
        ['pnpm changeset'],
      );
      for (let run = 1; run <= 3; run++) {
        await learn();
        const node = (await sessionsViewItems()).find((n) => n.id === id);
        assert.ok(node, `run ${run}: ${id} is listed`);
        if (run < 3) {
          assert.equal(node.contextValue, 'combee.session.failed');
          assert.equal(node.icon, 'warning');
          assert.match(node.description ?? '', new RegExp(`learning failed ${run}× \\(.+\\)$`));
        } else {
          assert.equal(node.contextValue, 'combee.session.givenUp');
          assert.equal(node.icon, 'error');
          assert.match(node.description ?? '', /given up after 3 failures \(.+\)$/);
          assert.match(node.tooltip ?? '', /given up after 3 failed tries/);
        }
      }
      assert.ok(model().requests.length > 0, 'the endpoint was asked');
    });
  });
});
