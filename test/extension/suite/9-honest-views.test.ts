// The views say what happened: a file accepted after partial decisions takes its rules, shows as accepted and leaves
// the status bar count as they do, a session whose learning failed three times shows as given up, and a file the
// import left out shows under its reason.
// The views are read through the extension's viewItems hook (their own providers, item by item).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { useLoopbackEndpoint } from './loopbackModel';
import { captureHome, run } from './combee';
import { writeSession } from './sessions';
import { activate, learn, api, readText, sessionsViewItems } from './combee';

/** What the status bar counts: "Combee: 3 rules and 1 file to review" → 4. */
const countOf = (text: string) =>
  Number(/(\d+) rules? (?:and|to review)/.exec(text)?.[1] ?? 0) + Number(/(\d+) files? to review/.exec(text)?.[1] ?? 0);

/**
 * What is left to review as the status bar counts it, and as this proposal's row and all the rows count it: the bar
 * is the sum of the rows (other tests' proposals may still be open). A hidden bar counts nothing, whatever text it
 * kept: with nothing left open (a learn run supersedes the proposal left open before it, so this test's proposal may
 * be the only one) the bar is hidden.
 */
async function reviewCounts(id: string): Promise<{ bar: number; rows: number; own: number; text: string }> {
  const bar = await api().statusBar();
  const rows = (await api().viewItems('proposals')).filter((n) => n.label.startsWith('Proposal '));
  // a proposal with nothing left to review leaves the view
  const own = await proposalNode(id).catch(() => undefined);
  return {
    bar: bar.visible ? countOf(bar.text) : 0,
    rows: rows.reduce((n, r) => n + countOf(r.description ?? ''), 0),
    own: countOf(own?.description ?? ''),
    text: bar.text,
  };
}

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

  it('Accept File after partial decisions takes the rules the file holds; a rejected rule is never on disk, and the views agree', async () => {
    writeSession(
      'No, never run the e2e suite against production; use the staging URL.',
      ['pnpm e2e:run', 'Error: browsers are not installed'],
      ['pnpm e2e:install'],
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const result = await learn();
    assert.ok(result?.proposalId, 'a proposal');
    const proposal = await api().loadProposal(result.proposalId);
    // the unflagged rules the root AGENTS.md holds (a rule scoped to a folder is in that folder's AGENTS.md)
    const agentsFile = proposal!.files.find((f) => f.path === 'AGENTS.md');
    const clean = proposal!.rules.filter((r) => r.flags.length === 0 && agentsFile?.after.includes(`[${r.id}]`));
    assert.ok(
      clean.length >= 2,
      JSON.stringify({ rules: proposal!.rules.map((r) => r.id), files: proposal!.files.map((f) => f.path) }),
    );
    const before = await reviewCounts(result.proposalId);
    assert.ok(before.own >= clean.length && before.bar === before.rows, JSON.stringify(before));
    const fresh = await proposalNode(result.proposalId);
    assert.ok(
      fresh.children.every((c) => !/accepted|rejected/.test(c.contextValue ?? '')),
      'nothing decided yet',
    );

    // a partial decision first: one rule turned down
    const [turnedDown, ...rest] = clean;
    assert.ok(await run('combee.rejectRule', result.proposalId, turnedDown.id));
    const afterReject = await reviewCounts(result.proposalId);
    assert.equal(afterReject.own, before.own - 1, `${JSON.stringify(before)} → ${JSON.stringify(afterReject)}`);
    assert.equal(afterReject.bar, afterReject.rows, JSON.stringify(afterReject));
    // the rows keep their place: the rejected rule is where it was, not moved under the next one
    assert.deepEqual(
      (await proposalNode(result.proposalId)).children.map((c) => c.label),
      fresh.children.map((c) => c.label),
    );

    // Accept File on AGENTS.md: the rules it holds are accepted with it, and written where the playbook has them
    const outcome = await run('combee.acceptFile', result.proposalId, 'AGENTS.md');
    assert.deepEqual(outcome!.conflicts, []);
    assert.ok(outcome!.written.includes('AGENTS.md') && outcome!.written.includes('.combee/playbook.md'));
    const saved = await api().loadProposal(result.proposalId);
    const decision = (id: string) => saved!.reviewed.rules.find((r) => r.id === id)?.decision;
    assert.equal(decision(turnedDown.id), 'rejected');
    for (const rule of rest) assert.equal(decision(rule.id), 'accepted', `${rule.id} went with AGENTS.md`);

    const playbook = await readText('.combee/playbook.md');
    const agents = await readText('AGENTS.md');
    const inPlaybook = new Set([...playbook.matchAll(/^\[([a-z]+-\d{5})\] helpful=/gm)].map((m) => m[1]));
    for (const m of agents.matchAll(/\[([a-z]+-\d{5})\]/g))
      assert.ok(inPlaybook.has(m[1]), `AGENTS.md cites ${m[1]}, which the playbook does not hold`);
    assert.ok(
      !playbook.includes(`[${turnedDown.id}]`) && !agents.includes(`[${turnedDown.id}]`),
      'rejected: not on disk',
    );
    for (const rule of rest) assert.ok(inPlaybook.has(rule.id) && agents.includes(`[${rule.id}]`), rule.id);

    // the rows say the same: AGENTS.md and its rules accepted, the other rule rejected (when the proposal still shows)
    const node = await proposalNode(result.proposalId).catch(() => undefined);
    if (node) {
      const row = (label: RegExp) => node.children.find((c) => label.test(c.label));
      assert.equal(row(/^AGENTS\.md$/)?.contextValue, 'combee.proposalFile.accepted');
      for (const rule of rest)
        assert.equal(row(new RegExp(rule.id))?.contextValue, 'combee.proposalRule.accepted', rule.id);
      assert.equal(row(new RegExp(turnedDown.id))?.contextValue, 'combee.proposalRule.rejected');
    }
    // CLAUDE.md holds no rule of its own (it imports AGENTS.md): when the proposal changes it, it is written with
    // AGENTS.md and its row goes too
    const along = saved!.reviewed.files.filter(
      (f) => f.decision === 'accepted' && f.path !== 'AGENTS.md' && f.path !== '.combee/playbook.md',
    );
    assert.deepEqual(
      along.map((f) => f.path),
      proposal!.files.some((f) => f.path === 'CLAUDE.md') ? ['CLAUDE.md'] : [],
    );
    assert.match(await readText('CLAUDE.md'), /^@AGENTS\.md$/m);
    const after = await reviewCounts(result.proposalId).catch(() => undefined);
    if (after) {
      assert.equal(
        after.own,
        afterReject.own - rest.length - along.length,
        `the row drops by the rules and files taken: ${JSON.stringify(after)}`,
      );
      assert.equal(after.bar, after.rows, `the status bar says what the rows say: ${JSON.stringify(after)}`);
    }

    // a rule accepted with its file cannot then read "rejected" while it stays on disk
    assert.equal(await run('combee.rejectRule', result.proposalId, rest[0].id), false);
    assert.equal(
      (await api().loadProposal(result.proposalId))!.reviewed.rules.find((r) => r.id === rest[0].id)?.decision,
      'accepted',
    );
    assert.ok((await readText('AGENTS.md')).includes(`[${rest[0].id}]`));
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
