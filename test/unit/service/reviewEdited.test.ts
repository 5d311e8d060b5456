import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reviewItems } from '../../../src/core/assets/review';
import { giveUpCounters } from '../../../src/core/service/learnRun/pendingCounters';
import { rebaseChange } from '../../../src/core/assets/rebase';
import { commitReview, planReview, type ReviewDeps } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { describeStatus, proposalStatus } from '../../../src/core/service/review/status';
import { UndoStack } from '../../../src/core/service/review/undo';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { FLAGGED_ID, PLAYBOOK_BEFORE, RULE_OPS, reviewFixture, type ReviewFixture } from '../../support/reviewProposal';

// Edit Before Accepting is a decision of the review service like the others: the user's text is read for the rules'
// new words, which become the rules' text in every file Combee renders; the service writes, and Undo walks it back.

const [kept, dropped] = RULE_OPS.map((op) => (op.op === 'ADD' ? (op.id as string) : ''));
const contentOf = (id: string) => RULE_OPS.flatMap((o) => (o.op === 'ADD' && o.id === id ? [o.content] : []))[0];

const depsOf = (fx: ReviewFixture): ReviewDeps => ({
  store: fx.store,
  proposals: fx.proposals,
  writer: fileWriter(fx.workspace),
  warn: () => undefined,
});
const read = (fx: ReviewFixture, path: string) => readFileSync(join(fx.workspace, path), 'utf8');

/** The user edits the proposed file (in a draft, never the workspace's file) and then accepts it as edited. */
async function acceptEdited(fx: ReviewFixture, path: string, edit: (proposed: string) => string) {
  const proposal = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
  const text = edit(proposal.files.find((f) => f.path === path)!.after);
  const deps = depsOf(fx);
  const stack = new UndoStack(fx.store.dir, fx.workspace);
  const result = await stack.commit(deps, await planReview(deps, proposal, { kind: 'accept-edited', path, text }));
  return { text, result, stack, deps };
}

const REWORDED = 'Run `pnpm db:generate` first, then `pnpm test`.';

describe('Edit Before Accepting through the review service', () => {
  it("the edited playbook's rules are accepted, those taken out of it rejected; the user's other lines are kept", async () => {
    const fx = await reviewFixture();
    // the user takes one rule out, and the flagged one with its bullet (its marker comment stays), and adds a note
    const { result } = await acceptEdited(
      fx,
      fx.playbookPath,
      (proposed) =>
        `${proposed
          .split('\n')
          .filter((l) => !l.startsWith(`[${dropped}]`) && !l.startsWith(`[${FLAGGED_ID}]`))
          .join('\n')}\nA note of the team.\n`,
    );
    assert.ok(result.decided);
    const playbook = read(fx, fx.playbookPath);
    assert.ok(playbook.includes(`[${kept}]`) && playbook.includes('A note of the team.'), playbook);
    assert.ok(!playbook.includes(`[${dropped}]`) && !playbook.includes(`${FLAGGED_ID}]`), playbook);
    const saved = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    assert.deepEqual(
      saved.reviewed.rules.map((r) => [r.id, r.decision]).sort(),
      [
        [kept, 'accepted'],
        [dropped, 'rejected'],
        [FLAGGED_ID, 'rejected'],
      ].sort(),
    );
    assert.ok(saved.reviewed.files.some((f) => f.path === fx.playbookPath && f.decision === 'accepted'));
    // every file Combee renders holds what the playbook holds: the accepted rule, not the ones taken out
    for (const path of ['AGENTS.md', '.github/copilot-instructions.md']) {
      const text = read(fx, path);
      assert.ok(text.includes(`[${kept}]`), path);
      assert.ok(!text.includes(`[${dropped}]`) && !text.includes(`[${FLAGGED_ID}]`), path);
    }
    assert.equal(saved.status, 'accepted');
    const memory = await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load();
    assert.deepEqual(memory.rejected.map((r) => r.content).sort(), [contentOf(dropped), contentOf(FLAGGED_ID)].sort());
    assert.ok(
      memory.accepted.some((a) => a.id === kept),
      JSON.stringify(memory.accepted),
    );
    // the rows keep the order first proposed
    assert.deepEqual(
      reviewItems(saved).rules.map((r) => r.id),
      fx.proposal.rules.map((r) => r.id),
    );
  });

  it("a rule reworded in the playbook is that rule's text in the playbook and in every agent file", async () => {
    const fx = await reviewFixture();
    const { result } = await acceptEdited(fx, fx.playbookPath, (proposed) =>
      proposed.replace(contentOf(kept), REWORDED),
    );
    assert.ok(result.decided);
    for (const path of [fx.playbookPath, 'AGENTS.md', '.github/copilot-instructions.md']) {
      const text = read(fx, path);
      assert.ok(text.includes(REWORDED), `${path}:\n${text}`);
      assert.ok(!text.includes(contentOf(kept)), `${path} no longer holds the old text`);
    }
    const saved = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    assert.equal(saved.reviewed.rules.find((r) => r.id === kept)?.content, REWORDED);
    assert.ok(saved.reviewed.files.some((f) => f.path === fx.playbookPath && f.decision === 'accepted'));
    // what is left is the flagged rule (accepted by name only), proposed on top of the edit, never taking it back
    const left = saved.files.find((f) => f.path === fx.playbookPath);
    assert.ok(left?.after.includes(REWORDED) && left.after.includes(`[${FLAGGED_ID}]`), left?.after);
    assert.ok(!saved.files.some((f) => f.diff.includes(contentOf(kept))), 'no diff brings the old text back');
    assert.equal(describeStatus(proposalStatus(saved)), '1 rule to review');
  });

  it("a rule reworded inside AGENTS.md's block goes into the playbook and the Copilot instructions; the team's own edit stays", async () => {
    const fx = await reviewFixture();
    const { result } = await acceptEdited(fx, 'AGENTS.md', (proposed) =>
      proposed.replace(contentOf(kept), REWORDED).replace('# Shop', '# Shop (ours)'),
    );
    assert.ok(result.decided);
    const agents = read(fx, 'AGENTS.md');
    assert.ok(agents.startsWith('# Shop (ours)\n'), agents);
    for (const path of [fx.playbookPath, 'AGENTS.md', '.github/copilot-instructions.md']) {
      assert.ok(read(fx, path).includes(REWORDED), path);
      assert.ok(!read(fx, path).includes(contentOf(kept)), path);
    }
    // the rule's line is Combee's rendering of the playbook's text: learning again renders the same
    assert.ok(agents.includes(`- [${kept}] ${REWORDED}`), agents);
    const saved = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    assert.deepEqual(saved.reviewed.rules.map((r) => [r.id, r.decision]).sort(), [
      [kept, 'accepted'],
      [dropped, 'accepted'],
    ]);
    assert.ok(saved.reviewed.files.some((f) => f.path === 'AGENTS.md' && f.decision === 'accepted'));
    assert.ok(!saved.files.some((f) => f.path === 'AGENTS.md'), 'AGENTS.md is decided');
    assert.ok(!read(fx, fx.playbookPath).includes(`[${FLAGGED_ID}]`), 'the flagged rule AGENTS.md never held waits');
    assert.equal(describeStatus(proposalStatus(saved)), '1 rule to review');
  });

  it('a file the proposal creates, edited, is created with the rule as reworded', async () => {
    const fx = await reviewFixture();
    const { result } = await acceptEdited(fx, '.github/copilot-instructions.md', (proposed) =>
      proposed.replace(contentOf(kept), REWORDED),
    );
    assert.ok(result.decided, JSON.stringify(result.outcome));
    for (const path of [fx.playbookPath, 'AGENTS.md', '.github/copilot-instructions.md'])
      assert.ok(read(fx, path).includes(REWORDED), path);
  });

  it("a file the team changed since the proposal: the draft is re-based, the team's edit is kept once", async () => {
    const fx = await reviewFixture({
      agents:
        '# Shop\n\nOur notes.\n\n## Layout\n\n- src/ holds the code.\n- docs/ holds the guides.\n\n## Review\n\nNotes for agents written by the team.\n',
    });
    writeFileSync(
      join(fx.workspace, 'AGENTS.md'),
      read(fx, 'AGENTS.md').replace('# Shop\n', '# Shop\n\nA line added since.\n'),
    );
    const proposal = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    const change = proposal.files.find((f) => f.path === 'AGENTS.md')!;
    const rebased = rebaseChange(change, read(fx, 'AGENTS.md'));
    assert.equal(rebased.kind, 'rebased');
    const draft = rebased.kind === 'rebased' ? rebased.change.after : '';
    const warnings: string[] = [];
    const deps = { ...depsOf(fx), warn: (m: string) => warnings.push(m) };
    const plan = await planReview(deps, proposal, {
      kind: 'accept-edited',
      path: 'AGENTS.md',
      text: draft.replace(contentOf(kept), REWORDED).replace('Notes for agents', 'Notes for our agents'),
    });
    assert.ok((await commitReview(deps, plan)).decided);
    const agents = read(fx, 'AGENTS.md');
    assert.equal(agents.split('A line added since.').length, 2, agents);
    assert.ok(agents.includes('Notes for our agents') && agents.includes(`- [${kept}] ${REWORDED}`), agents);
    assert.deepEqual(warnings, []);
  });

  it('Undo walks it back: every file as before the edit, the proposal and review memory too', async () => {
    const fx = await reviewFixture();
    const memoryBefore = await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load();
    const agentsBefore = read(fx, 'AGENTS.md');
    const { stack, deps } = await acceptEdited(fx, fx.playbookPath, (proposed) =>
      proposed.replace(contentOf(kept), REWORDED),
    );
    const undone = await stack.undo(deps);
    assert.ok(undone.kind === 'undone', undone.kind);
    assert.equal(read(fx, fx.playbookPath), PLAYBOOK_BEFORE);
    assert.equal(read(fx, 'AGENTS.md'), agentsBefore);
    assert.deepEqual(await fx.proposals.load(fx.workspace, fx.proposal.id), fx.proposal);
    assert.deepEqual(await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load(), memoryBefore);
  });
});

describe('counters given up by an older proposal', () => {
  it("render it with the settings it was made with, not the run's", async () => {
    const fx = await reviewFixture({ playbookPath: 'docs/rules.md', targets: ['playbook', 'agents-md'] });
    // the run that carries the counters on is made with other settings: another playbook path, more targets
    await giveUpCounters(
      fx.store,
      fx.proposals,
      { counts: [], from: [fx.proposal] },
      { playbookPath: '.combee/playbook.md', targets: ['playbook', 'agents-md', 'copilot-instructions'] },
      () => undefined,
    );
    const saved = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    assert.deepEqual(saved.files.map((f) => f.path).sort(), ['AGENTS.md', 'docs/rules.md']);
    assert.deepEqual(saved.tags, []);
    const playbook = saved.files.find((f) => f.path === 'docs/rules.md')!;
    assert.ok(playbook.after.includes('[bui-00001] helpful=1 '), 'without the counter it gave up');
    assert.ok(playbook.after.includes(`[${kept}]`));
  });
});
