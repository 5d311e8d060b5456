import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reviewItems } from '../../../src/core/assets/review';
import { giveUpCounters } from '../../../src/core/service/pendingCounters';
import { planReview, type ReviewDeps } from '../../../src/core/service/review/decide';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { describeStatus, proposalStatus } from '../../../src/core/service/review/status';
import { UndoStack } from '../../../src/core/service/review/undo';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { FLAGGED_ID, PLAYBOOK_BEFORE, RULE_OPS, reviewFixture, type ReviewFixture } from '../../support/reviewProposal';

// Edit Before Accepting is a decision of the review service like the others: the text the user saved is recorded
// (not written again), the service decides which rules it took, and Undo walks it back.

const [kept, dropped] = RULE_OPS.map((op) => (op.op === 'ADD' ? (op.id as string) : ''));

const depsOf = (fx: ReviewFixture): ReviewDeps => ({
  store: fx.store,
  proposals: fx.proposals,
  writer: fileWriter(fx.workspace),
  warn: () => undefined,
});
const read = (fx: ReviewFixture, path: string) => readFileSync(join(fx.workspace, path), 'utf8');

/** The user saves the proposed file as edited in the editor; the service is told after the save. */
async function saveEdited(fx: ReviewFixture, path: string, edit: (proposed: string) => string) {
  const proposal = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
  const before = read(fx, path);
  const text = edit(proposal.files.find((f) => f.path === path)!.after);
  writeFileSync(join(fx.workspace, path), text);
  const deps = depsOf(fx);
  const stack = new UndoStack(fx.store.dir, fx.workspace);
  const result = await stack.commit(
    deps,
    await planReview(deps, proposal, { kind: 'accept-edited', path, before, text }),
  );
  return { before, text, result, stack, deps };
}

describe('Edit Before Accepting through the review service', () => {
  it("the saved playbook's rules are accepted, those taken out of it rejected; nothing is written over the user's text", async () => {
    const fx = await reviewFixture();
    const agentsBefore = read(fx, 'AGENTS.md');
    // the user takes one rule out, and the flagged one with its bullet (its marker comment stays), and adds a note
    const { text, result } = await saveEdited(
      fx,
      fx.playbookPath,
      (proposed) =>
        `${proposed
          .split('\n')
          .filter((l) => !l.startsWith(`[${dropped}]`) && !l.startsWith(`[${FLAGGED_ID}]`))
          .join('\n')}\nA note of the team.\n`,
    );
    assert.ok(result.decided);
    assert.deepEqual(result.outcome.written, [fx.playbookPath], 'recorded as written, for undo');
    assert.equal(read(fx, fx.playbookPath), text, 'the saved text is left as the user saved it');
    assert.equal(read(fx, 'AGENTS.md'), agentsBefore, 'no other file is written');
    const saved = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    assert.deepEqual(
      saved.reviewed.rules.map((r) => [r.id, r.decision]).sort(),
      [
        [kept, 'accepted'],
        [dropped, 'rejected'],
        [FLAGGED_ID, 'rejected'],
      ].sort(),
    );
    assert.deepEqual(saved.reviewed.files, [{ path: fx.playbookPath, kind: 'modify', decision: 'accepted' }]);
    assert.deepEqual(saved.tags, [], "the run's counters went with the saved playbook");
    // what is left: the agent files, rendered from the saved playbook, citing only what it holds
    assert.deepEqual(saved.files.map((f) => f.path).sort(), ['AGENTS.md', 'CLAUDE.md']);
    for (const file of saved.files) {
      assert.ok(file.after.includes(`[${kept}]`), file.path);
      assert.ok(!file.after.includes(`[${dropped}]`) && !file.after.includes(`[${FLAGGED_ID}]`), file.path);
    }
    assert.equal(describeStatus(proposalStatus(saved)), '2 files to review');
    const memory = await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load();
    assert.deepEqual(
      memory.rejected.map((r) => r.content).sort(),
      RULE_OPS.filter((o) => o.op === 'ADD' && o.id !== kept)
        .map((o) => (o.op === 'ADD' ? o.content : ''))
        .sort(),
    );
    // the saved playbook is known as written, so a later deletion of the rule is noticed
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

  it('Undo walks it back: the playbook as before the edit, the proposal and review memory too', async () => {
    const fx = await reviewFixture();
    const memoryBefore = await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load();
    const { stack, deps } = await saveEdited(fx, fx.playbookPath, (proposed) => `<!-- edited -->\n${proposed}`);
    const undone = await stack.undo(deps);
    assert.ok(undone.kind === 'undone', undone.kind);
    assert.deepEqual(undone.reverted, [fx.playbookPath]);
    assert.equal(read(fx, fx.playbookPath), PLAYBOOK_BEFORE);
    assert.deepEqual(await fx.proposals.load(fx.workspace, fx.proposal.id), fx.proposal);
    assert.deepEqual(await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load(), memoryBefore);
  });

  it('another file saved takes the rules it holds as Accept File does: the playbook and the other files get them', async () => {
    const fx = await reviewFixture();
    const { text, result } = await saveEdited(fx, 'AGENTS.md', (proposed) =>
      proposed.replace('# Shop', '# Shop (ours)'),
    );
    assert.ok(result.decided);
    assert.equal(read(fx, 'AGENTS.md'), text, 'the saved file is left as the user saved it');
    const saved = (await fx.proposals.load(fx.workspace, fx.proposal.id))!;
    assert.deepEqual(saved.reviewed.rules.map((r) => [r.id, r.decision]).sort(), [
      [kept, 'accepted'],
      [dropped, 'accepted'],
    ]);
    // every rule AGENTS.md cites is in the playbook it says it was generated from, and in CLAUDE.md
    for (const path of [fx.playbookPath, 'CLAUDE.md'])
      for (const id of [kept, dropped]) assert.ok(read(fx, path).includes(`[${id}]`), `${id} in ${path}`);
    assert.ok(!read(fx, fx.playbookPath).includes(`[${FLAGGED_ID}]`), 'the flagged rule AGENTS.md never held waits');
    assert.equal(describeStatus(proposalStatus(saved)), '1 rule to review');
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
      { playbookPath: '.combee/playbook.md', targets: ['playbook', 'agents-md', 'claude-md'] },
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
