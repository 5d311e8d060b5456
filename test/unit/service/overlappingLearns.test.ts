import assert from 'node:assert/strict';
import type { Proposal } from '../../../src/core/assets/proposal';
import { pendingRules } from '../../../src/core/assets/review';
import { planReview, type ReviewAction, type ReviewDeps } from '../../../src/core/service/review/decide';
import { proposalLessons } from '../../../src/core/service/proposalFiles';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { UndoStack } from '../../../src/core/service/review/undo';
import {
  AGENT_FILES,
  PLAYBOOK,
  correctedSession,
  fileProblems,
  openProposals,
  overlappingFixture,
  type OverlappingFixture,
} from '../../support/overlappingLearns';

// Two learning runs with decisions before, between and after them, in every order: one proposal waits at a time (the
// newer takes the older's place, its undecided rules under the same ids), and whatever is accepted, each file holds
// one Combee block and the playbook no rule twice.

type Decision =
  'none' | 'accept-all' | 'reject-all' | 'accept-agents' | 'accept-playbook' | 'accept-rule' | 'reject-rule';
const DECISIONS: Decision[] = [
  'none',
  'accept-all',
  'reject-all',
  'accept-agents',
  'accept-playbook',
  'accept-rule',
  'reject-rule',
];

function action(decision: Decision, proposal: Proposal): ReviewAction | undefined {
  const [first] = pendingRules(proposal);
  switch (decision) {
    case 'none':
      return undefined;
    case 'accept-all':
    case 'reject-all':
      return { kind: decision };
    case 'accept-agents':
      return { kind: 'accept-file', path: 'AGENTS.md' };
    case 'accept-playbook':
      return { kind: 'accept-file', path: PLAYBOOK };
    case 'accept-rule':
      return first && { kind: 'accept-rules', ids: [first.id] };
    case 'reject-rule':
      return first && { kind: 'reject-rules', ids: [first.id] };
  }
}

function deps(fx: OverlappingFixture, warnings: string[] = []): ReviewDeps {
  return {
    store: fx.store,
    proposals: fx.proposals,
    writer: fileWriter(fx.workspace),
    warn: (m) => warnings.push(m),
  };
}

/** Decides on the proposal as stored now, through the undo stack as the front ends do; false when refused. */
async function decideOn(fx: OverlappingFixture, id: string, decision: Decision): Promise<boolean> {
  const proposal = await fx.proposals.load(fx.workspace, id);
  const wanted = proposal && action(decision, proposal);
  if (!proposal || !wanted) return false;
  const d = deps(fx);
  const result = await new UndoStack(fx.storeDir, fx.workspace).commit(d, await planReview(d, proposal, wanted));
  return result.decided;
}

describe('overlapping learning runs', () => {
  let fx: OverlappingFixture;
  let first: Proposal;

  before(async function () {
    this.timeout(60_000);
    fx = overlappingFixture();
    await fx.store.saveTrace(correctedSession(fx.workspace, 'tests', 0));
    await fx.store.saveTrace(correctedSession(fx.workspace, 'install', 1));
    const run = await fx.learn();
    assert.ok(run.proposal, 'the first run proposes');
    assert.ok(pendingRules(run.proposal).length >= 2, 'two rules, so that one can be decided alone');
    first = run.proposal;
    fx.snapshot('first');
  });

  it('a second run supersedes the pending proposal: the same rules under the same ids, one proposal to review', async function () {
    this.timeout(60_000);
    fx.restore('first');
    await fx.store.saveTrace(correctedSession(fx.workspace, 'tests', 2));
    const run = await fx.learn();
    assert.ok(run.proposal, 'the second run proposes');
    assert.deepEqual(run.superseded, [first.id]);
    assert.deepEqual(run.proposal.supersedes, [first.id]);
    const rebuilt: Proposal = run.proposal;
    // the lessons behind the carried rules (Skills, nested scopes) are read from the run they came from
    assert.deepEqual(rebuilt.lessonsFrom, [first.runId]);
    const lessons = await proposalLessons(fx.store, rebuilt);
    for (const traceId of ['codex:tests-0', 'codex:install-1', 'codex:tests-2'])
      assert.ok(
        lessons.some((l) => l.evidence.traceId === traceId),
        `a lesson of ${traceId}`,
      );
    // the rules pending before keep their ids and are not proposed again under new ones
    for (const rule of first.rules) {
      const same = rebuilt.rules.filter((r) => r.content === rule.content);
      assert.deepEqual(
        same.map((r) => r.id),
        [rule.id],
        `${rule.id} once, under its id`,
      );
      // screened again against the sessions it came from: held back only if it was
      assert.deepEqual(same[0].flags, rule.flags, `${rule.id}'s flags`);
    }
    const older = await fx.proposals.load(fx.workspace, first.id);
    assert.equal(older?.status, 'superseded');
    assert.equal(older?.supersededBy, run.proposal.id);
    assert.deepEqual(
      (await openProposals(fx)).map((p) => p.id),
      [run.proposal.id],
    );
    // deciding on the superseded one is refused, naming the one that took its place
    const d = deps(fx);
    const plan = await planReview(d, older as Proposal, { kind: 'accept-all' });
    assert.match(plan.refused ?? '', new RegExp(`superseded by ${run.proposal.id}`));
  });

  it('a run whose only news is more evidence for a pending rule rebuilds the proposal, the rule under its id', async function () {
    this.timeout(60_000);
    fx.restore('first');
    // the same lesson in another session: the rule's support grows, its id stays
    await fx.store.saveTrace({ ...correctedSession(fx.workspace, 'tests', 0), id: 'codex:tests-again' });
    const run = await fx.learn();
    assert.ok(run.proposal);
    assert.deepEqual(run.superseded, [first.id]);
    const [tests] = first.rules;
    const rebuilt = run.proposal.rules.filter((r) => r.content === tests.content);
    assert.deepEqual(
      rebuilt.map((r) => r.id),
      [tests.id],
    );
    assert.deepEqual(rebuilt[0].support.map((s) => s.traceId).sort(), ['codex:tests-0', 'codex:tests-again']);
    assert.equal((await openProposals(fx)).length, 1, 'one proposal waits');
  });

  it('a run that brings nothing new leaves the pending proposal as it is, and says so', async function () {
    this.timeout(60_000);
    fx.restore('first');
    const stored = await fx.proposals.load(fx.workspace, first.id);
    await fx.store.saveTrace(correctedSession(fx.workspace, 'quiet', 4));
    const run = await fx.learn();
    assert.equal(run.proposal, undefined);
    assert.equal(run.stillPending, first.id);
    assert.deepEqual(await fx.proposals.load(fx.workspace, first.id), stored, 'untouched');
  });

  for (const before of DECISIONS)
    it(`learn, ${before}, learn, then every decision after: one block per file, no rule twice`, async function () {
      this.timeout(120_000);
      for (const after of DECISIONS) {
        const story = `learn, ${before}, learn, ${after}`;
        fx.restore('first');
        await decideOn(fx, first.id, before);
        await fx.store.saveTrace(correctedSession(fx.workspace, 'tests', 2));
        await fx.store.saveTrace(correctedSession(fx.workspace, 'lint', 3));
        const second = await fx.learn();
        assert.ok(second.proposal, `${story}: the second run proposes (the linter's rule)`);
        const open = await openProposals(fx);
        assert.deepEqual(
          open.map((p) => p.id),
          [second.proposal.id],
          `${story}: one proposal waits`,
        );
        assert.ok(open.length <= 1, `${story}: ${open.length} proposals wait`);
        await decideOn(fx, second.proposal.id, after);
        // then the user accepts every proposal they were shown, oldest first: the superseded one is refused
        assert.equal(await decideOn(fx, first.id, 'accept-all'), false, `${story}: closed or superseded, refused`);
        await decideOn(fx, second.proposal.id, 'accept-all');
        assert.deepEqual(fileProblems(fx), [], story);
        if (before === 'accept-all' || after === 'accept-all')
          for (const path of AGENT_FILES) assert.match(fx.read(path) ?? '', /combee:begin/, `${story}: ${path}`);
      }
    });

  it('two proposals left open side by side (made before one replaced the other) are accepted one after the other into one block', async function () {
    this.timeout(60_000);
    fx.restore('first');
    // as a store written before: the second run made without the first proposal, which stays open beside it
    await fx.proposals.save({ ...first, status: 'rejected' });
    await fx.store.saveTrace(correctedSession(fx.workspace, 'tests', 2));
    await fx.store.saveTrace(correctedSession(fx.workspace, 'lint', 3));
    const run = await fx.learn();
    assert.ok(run.proposal);
    assert.equal(run.superseded, undefined);
    await fx.proposals.save(first);
    assert.equal((await openProposals(fx)).length, 2);
    const same = run.proposal.rules.filter((r) => first.rules.some((f) => f.content === r.content));
    assert.ok(same.length > 0, 'the same rules proposed twice');
    const second = run.proposal;
    for (const order of [
      [first.id, second.id],
      [second.id, first.id],
    ]) {
      fx.snapshot('side-by-side');
      const warnings: string[] = [];
      for (const id of order) {
        const proposal = await fx.proposals.load(fx.workspace, id);
        assert.ok(proposal);
        const d = deps(fx, warnings);
        const result = await new UndoStack(fx.storeDir, fx.workspace).commit(
          d,
          await planReview(d, proposal, { kind: 'accept-all' }),
        );
        assert.ok(result.decided, `${order.join(' then ')}: ${id} accepted`);
      }
      assert.deepEqual(fileProblems(fx), [], order.join(' then '));
      for (const path of AGENT_FILES) assert.match(fx.read(path) ?? '', /combee:begin/);
      fx.restore('side-by-side');
    }
  });

  it('undoing a decision on a superseded proposal reopens its rules in the one that took its place', async function () {
    this.timeout(60_000);
    fx.restore('first');
    const [taken] = pendingRules(first);
    assert.ok(await decideOn(fx, first.id, 'accept-rule'));
    await fx.store.saveTrace(correctedSession(fx.workspace, 'lint', 3));
    const run = await fx.learn();
    assert.ok(run.proposal);
    assert.ok(!run.proposal.rules.some((r) => r.id === taken.id), 'the accepted rule is in the file, not proposed');
    const undone = await new UndoStack(fx.storeDir, fx.workspace).undo(deps(fx));
    assert.equal(undone.kind, 'undone');
    assert.ok(!(fx.read(PLAYBOOK) ?? '').includes(`[${taken.id}]`), 'the rule left the playbook');
    const newer = await fx.proposals.load(fx.workspace, run.proposal.id);
    assert.ok(
      newer && pendingRules(newer).some((r) => r.id === taken.id),
      'and waits in the newer proposal, under its id',
    );
    assert.equal((await fx.proposals.load(fx.workspace, first.id))?.status, 'superseded');
    assert.equal((await openProposals(fx)).length, 1);
    assert.ok(await decideOn(fx, run.proposal.id, 'accept-all'));
    assert.deepEqual(fileProblems(fx), []);
    assert.ok((fx.read(PLAYBOOK) ?? '').includes(`[${taken.id}]`), 'accepted again, once');
  });
});
