import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChange, Proposal } from '../../../src/core/assets/proposal';
import { rebaseChange } from '../../../src/core/assets/rebase';
import { isOpen, reviewItems } from '../../../src/core/assets/review';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { bullets } from '../../../src/core/playbook/model';
import { decide, planReview, type ReviewAction, type ReviewDeps } from '../../../src/core/service/review/decide';
import { UndoStack } from '../../../src/core/service/review/undo';
import { fileWriter } from '../../../src/core/service/review/fileWriter';
import { describeStatus, proposalStatus } from '../../../src/core/service/review/status';
import type { ReviewWriter } from '../../../src/core/service/review/writer';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { FLAGGED_ID, RULE_OPS, reviewFixture, type ReviewFixture } from '../../support/reviewProposal';

// The review service's decision table: whatever the order of decisions on rules and files, the files on disk, the
// recorded decisions and the review status say the same thing.

type State = 'pending' | 'accepted' | 'rejected';
type Step =
  | { kind: 'accept-rule' | 'reject-rule'; id: string }
  | { kind: 'accept-file' | 'reject-file'; path: string }
  | { kind: 'accept-all' | 'reject-all' };

const RULES = RULE_OPS.map((op) => (op.op === 'ADD' ? (op.id as string) : ''));
const PLAYBOOK = '.combee/playbook.md';
const FILES = [PLAYBOOK, 'AGENTS.md', '.github/copilot-instructions.md'];

const label = (s: Step) => ('id' in s ? `${s.kind} ${s.id}` : 'path' in s ? `${s.kind} ${s.path}` : s.kind);

function toAction(step: Step): ReviewAction {
  switch (step.kind) {
    case 'accept-rule':
      return { kind: 'accept-rules', ids: [step.id] };
    case 'reject-rule':
      return { kind: 'reject-rules', ids: [step.id] };
    default:
      return step;
  }
}

/** The rules a pending file's diff adds, edits or takes out: the lines it changes that cite them. */
function citedByDiff(change: FileChange): string[] {
  const changed = change.diff
    .split('\n')
    .filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l))
    .join('\n');
  return RULES.filter((id) => changed.includes(`[${id}]`));
}

/** What each step must decide, from the proposal as it stands before it (a model kept apart from the service). */
function expected(states: Map<string, State>, proposal: Proposal, step: Step): void {
  const pending = (id: string) => states.get(id) === 'pending';
  const open = isOpen(proposal);
  const set = (ids: string[], state: State) => {
    if (open) for (const id of ids.filter(pending)) states.set(id, state);
  };
  switch (step.kind) {
    case 'accept-rule':
      return set([step.id], 'accepted');
    case 'reject-rule':
      return set([step.id], 'rejected');
    case 'accept-all':
      return set(
        RULES.filter((id) => id !== FLAGGED_ID),
        'accepted',
      );
    case 'reject-all':
      return set(RULES, 'rejected');
    case 'accept-file':
    case 'reject-file': {
      const change = proposal.files.find((f) => f.path === step.path);
      if (!change) return;
      const cited = citedByDiff(change).filter(pending);
      if (step.kind === 'reject-file') return set(cited, 'rejected');
      return set(
        cited.filter((id) => id !== FLAGGED_ID),
        'accepted',
      );
    }
  }
}

const read = (fx: ReviewFixture, path: string) =>
  existsSync(join(fx.workspace, path)) ? readFileSync(join(fx.workspace, path), 'utf8') : '';
const cites = (text: string, id: string) => text.includes(`[${id}]`);

/** Every invariant of a workspace after a sequence of decisions. */
async function checkInvariants(
  fx: ReviewFixture,
  states: Map<string, State>,
  story: string,
  filesEditedSince = false,
): Promise<void> {
  const proposal = await fx.proposals.load(fx.workspace, fx.proposal.id);
  assert.ok(proposal, story);
  const playbookText = read(fx, fx.playbookPath);
  const playbookIds = new Set(bullets(parsePlaybook(playbookText)).map((b) => b.id));
  const agentFiles = FILES.filter((f) => f !== fx.playbookPath).map((f) => [f, read(fx, f)] as const);
  for (const id of RULES) {
    const state = states.get(id);
    const recorded: State = proposal.reviewed.rules.find((r) => r.id === id)?.decision ?? 'pending';
    assert.equal(recorded, state, `${story}: ${id} is recorded ${recorded}, expected ${state}`);
    if (state === 'accepted') {
      assert.ok(playbookIds.has(id), `${story}: accepted ${id} is in the playbook`);
      for (const [path, text] of agentFiles) assert.ok(cites(text, id), `${story}: accepted ${id} is in ${path}`);
    } else {
      // a rejected rule is never on disk, nor one still waiting
      for (const [path, text] of [[fx.playbookPath, playbookText] as const, ...agentFiles])
        assert.ok(!cites(text, id), `${story}: ${state} ${id} is not in ${path}`);
    }
  }
  // every rule an agent file cites is in the playbook it says it was generated from
  for (const [path, text] of agentFiles)
    for (const m of text.matchAll(/\[([a-z]+-\d{5})\]/g))
      assert.ok(playbookIds.has(m[1]), `${story}: ${path} cites ${m[1]}, which the playbook does not hold`);
  // the run's counter reaches the playbook once, with the first accept that writes it
  const counter = /\[bui-00001\] helpful=(\d+)/.exec(playbookText)?.[1];
  assert.ok(counter === '1' || counter === '2', `${story}: counter ${counter}`);
  // the rows keep the place they were first proposed in, whatever was decided
  for (const [rows, first] of [
    [reviewItems(proposal).rules.map((r) => r.id), fx.proposal.rules.map((r) => r.id)],
    [reviewItems(proposal).files.map((f) => f.path), fx.proposal.files.map((f) => f.path)],
  ] as const)
    assert.deepEqual(
      rows.filter((k) => first.includes(k)),
      first.filter((k) => rows.includes(k)),
      `${story}: rows in their first order`,
    );
  // the status is computed from the same decisions
  const waiting = RULES.filter((id) => states.get(id) === 'pending');
  const status = proposalStatus(proposal);
  if (isOpen(proposal)) {
    assert.equal(status.rules, waiting.length, `${story}: status counts the rules that wait`);
    // every file still proposed is rendered against the files as they are (nothing stale, nothing decided in it)
    for (const file of proposal.files) {
      if (!filesEditedSince)
        assert.equal(rebaseChange(file, read(fx, file.path) || undefined).kind, 'unchanged', `${story}: ${file.path}`);
      for (const id of RULES.filter((r) => states.get(r) === 'rejected'))
        assert.ok(!cites(file.after, id), `${story}: pending ${file.path} holds rejected ${id}`);
    }
  } else {
    assert.deepEqual(
      waiting.filter((id) => id !== FLAGGED_ID),
      [],
      `${story}: closed with rules waiting`,
    );
    assert.equal(describeStatus(status), 'nothing to review');
  }
}

/** The service as the CLI runs it: plain file writes into the fixture's workspace. */
function depsOf(fx: ReviewFixture): ReviewDeps {
  return { store: fx.store, proposals: fx.proposals, writer: fileWriter(fx.workspace), warn: () => undefined };
}

async function run(steps: Step[], before?: (fx: ReviewFixture, index: number) => void): Promise<ReviewFixture> {
  const fx = await reviewFixture();
  const deps = depsOf(fx);
  const states = new Map<string, State>(RULES.map((id) => [id, 'pending']));
  const done: string[] = [];
  for (const [index, step] of steps.entries()) {
    before?.(fx, index);
    const proposal = await fx.proposals.load(fx.workspace, fx.proposal.id);
    assert.ok(proposal);
    expected(states, proposal, step);
    await decide(deps, proposal, toAction(step));
    done.push(label(step));
    await checkInvariants(fx, states, done.join(' → '));
  }
  return fx;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Every order of the items, each accepted or rejected (every combination). */
function everyOrder<T>(items: readonly T[], step: (item: T, accept: boolean) => Step): Step[][] {
  const out: Step[][] = [];
  for (const order of permutations(items))
    for (let mask = 0; mask < 1 << items.length; mask++)
      out.push(order.map((item, i) => step(item, (mask & (1 << i)) === 0)));
  return out;
}

const ruleStep = (id: string, accept: boolean): Step => ({ kind: accept ? 'accept-rule' : 'reject-rule', id });
const fileStep = (path: string, accept: boolean): Step => ({ kind: accept ? 'accept-file' : 'reject-file', path });

describe('review decisions: one table for every front end', () => {
  it('every order of accept and reject over the three rules (one flagged, taken by name)', async () => {
    for (const steps of everyOrder(RULES, ruleStep)) await run(steps);
  });

  it('every order of accept and reject over the three files', async () => {
    for (const steps of everyOrder(FILES, fileStep)) await run(steps);
  });

  type Item = { rule: string } | { file: string };
  const itemStep = (item: Item, accept: boolean) =>
    'rule' in item ? ruleStep(item.rule, accept) : fileStep(item.file, accept);
  const mixes: Item[][] = [
    [{ rule: RULES[0] }, { rule: FLAGGED_ID }, { file: 'AGENTS.md' }],
    [{ rule: RULES[1] }, { file: 'AGENTS.md' }, { file: PLAYBOOK }],
    [{ rule: FLAGGED_ID }, { file: '.github/copilot-instructions.md' }, { file: PLAYBOOK }],
  ];
  for (const items of mixes)
    it(`every order of ${items.map((i) => ('rule' in i ? i.rule : i.file)).join(', ')}, each accepted or rejected`, async () => {
      for (const steps of everyOrder(items, itemStep)) await run(steps);
    });

  const single: Step[] = [
    ...RULES.flatMap((id) => [ruleStep(id, true), ruleStep(id, false)]),
    ...FILES.flatMap((path) => [fileStep(path, true), fileStep(path, false)]),
    { kind: 'accept-all' },
    { kind: 'reject-all' },
  ];
  for (const [what, firsts] of [
    ['a decision on a rule', single.slice(0, 6)],
    ['a decision on a file or on everything', single.slice(6)],
  ] as const)
    it(`${what}, followed by any decision (accept-all and reject-all included)`, async () => {
      for (const first of firsts) for (const second of single) await run([first, second]);
    });

  it('the reported bug: accept one rule, reject another, then Accept File on AGENTS.md writes no pending rule', async () => {
    const [one, two, three] = RULES;
    await run([ruleStep(one, true), ruleStep(two, false), fileStep('AGENTS.md', true)]);
    // and Accept File then Reject Rule: the rule the file held was accepted with it, so it cannot read "rejected"
    const fx = await reviewFixture();
    const deps = { store: fx.store, proposals: fx.proposals, writer: fileWriter(fx.workspace), warn: () => undefined };
    const accepted = await decide(deps, fx.proposal, { kind: 'accept-file', path: 'AGENTS.md' });
    assert.deepEqual(accepted.plan.accepting.map((r) => r.id).sort(), [one, two], 'the file says which rules it takes');
    const refused = await decide(deps, accepted.proposal, { kind: 'reject-rules', ids: [two] });
    assert.equal(refused.decided, false);
    assert.match(refused.plan.refused ?? '', /is accepted already/);
    assert.ok(!cites(read(fx, 'AGENTS.md'), three));
  });

  it('the status counts rules and the files holding none, apart', async () => {
    const fx = await reviewFixture();
    assert.equal(describeStatus(proposalStatus(fx.proposal)), '3 rules to review');
    const deps = { store: fx.store, proposals: fx.proposals, writer: fileWriter(fx.workspace), warn: () => undefined };
    // the counter waits in the playbook file with the flagged rule: decided with it
    const after = await decide(deps, fx.proposal, { kind: 'accept-rules', ids: [RULES[0]] });
    assert.equal(describeStatus(proposalStatus(after.proposal)), '2 rules to review');
    const closed = await decide(deps, after.proposal, { kind: 'reject-all' });
    assert.equal(closed.proposal.status, 'rejected');
    assert.equal(describeStatus(proposalStatus(closed.proposal)), 'nothing to review');
  });
});

describe('review decisions with files edited in between', () => {
  it("an accept after the user's edits keeps them: text outside the rules block, a note in the playbook", async () => {
    const mine = '\nWritten by hand after the proposal.\n';
    const fx = await run(
      [ruleStep(RULES[0], true), fileStep('AGENTS.md', true), { kind: 'accept-all' }],
      (fx, index) => {
        if (index === 1) {
          appendFileSync(join(fx.workspace, 'AGENTS.md'), mine);
          appendFileSync(
            join(fx.workspace, fx.playbookPath),
            '\n## Team notes\n[tea-00001] helpful=0 harmful=0 :: Keep PRs small.\n',
          );
        }
      },
    );
    assert.ok(read(fx, 'AGENTS.md').includes(mine), 'the text written by hand is kept');
    assert.match(read(fx, fx.playbookPath), /\[tea-00001\] helpful=0 harmful=0 :: Keep PRs small\./);
    assert.match(read(fx, 'AGENTS.md'), /\[tea-00001\] Keep PRs small\./, 'and the rule added by hand goes along');
  });

  it('the proposal as reviewed is never written over an edit where it writes: nothing of it is, nothing is decided', async () => {
    const fx = await reviewFixture();
    const deps = { store: fx.store, proposals: fx.proposals, writer: fileWriter(fx.workspace), warn: () => undefined };
    // the user edits the line the proposal's counter changes
    const edited = readFileSync(join(fx.workspace, fx.playbookPath), 'utf8').replace('before anything else', 'first');
    writeFileSync(join(fx.workspace, fx.playbookPath), edited);
    const agentsBefore = read(fx, 'AGENTS.md');
    const unflagged = { ...fx.proposal, rules: fx.proposal.rules.map((r) => ({ ...r, flags: [] })) };
    await fx.proposals.save(unflagged);
    const result = await decide(deps, unflagged, { kind: 'accept-all' });
    assert.equal(result.decided, false);
    assert.deepEqual(
      result.outcome.conflicts.map((c) => c.path),
      [fx.playbookPath],
    );
    assert.equal(read(fx, fx.playbookPath), edited);
    assert.equal(read(fx, 'AGENTS.md'), agentsBefore, 'AGENTS.md is not written without its playbook');
    assert.ok(!existsSync(join(fx.workspace, '.github/copilot-instructions.md')));
    const saved = await fx.proposals.load(fx.workspace, fx.proposal.id);
    assert.deepEqual(saved?.reviewed, { files: [], rules: [] });
    assert.deepEqual(
      await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load().then((m) => m.accepted),
      [],
    );
  });

  it('a file edited while the decision is written (a race) stops the whole write', async () => {
    const fx = await reviewFixture();
    const plain = fileWriter(fx.workspace);
    const racing: ReviewWriter = {
      write: async (changes) => {
        writeFileSync(join(fx.workspace, 'AGENTS.md'), '# Shop\n\nRewritten meanwhile.\n');
        return plain.write(changes);
      },
      restore: plain.restore,
    };
    const deps = { store: fx.store, proposals: fx.proposals, writer: racing, warn: () => undefined };
    const playbookBefore = read(fx, fx.playbookPath);
    const result = await decide(deps, fx.proposal, { kind: 'accept-rules', ids: [RULES[1]] });
    assert.equal(result.decided, false);
    assert.deepEqual(
      result.outcome.conflicts.map((c) => c.path),
      ['AGENTS.md'],
    );
    assert.equal(read(fx, fx.playbookPath), playbookBefore);
    const states = new Map<string, State>(RULES.map((id) => [id, 'pending']));
    // the proposal's AGENTS.md is stale now (a later decision renders it again); the rest holds
    await checkInvariants(fx, states, 'race', true);
  });
});

describe('undo walks back several decisions', () => {
  const snapshot = async (fx: ReviewFixture) => ({
    files: FILES.map((f) => read(fx, f)),
    proposal: await fx.proposals.load(fx.workspace, fx.proposal.id),
    memory: await new ReviewMemory(new WorkspaceState(fx.store.dir), fx.workspace).load(),
  });
  const steps: ReviewAction[] = [
    { kind: 'accept-rules', ids: [RULES[0]] },
    { kind: 'reject-rules', ids: [FLAGGED_ID] },
    { kind: 'accept-file', path: 'AGENTS.md' },
  ];
  /** The three decisions made through one stack; the snapshots before each and after the last. */
  async function decided(fx: ReviewFixture) {
    const deps = depsOf(fx);
    const stack = new UndoStack(fx.store.dir, fx.workspace);
    const states = [await snapshot(fx)];
    for (const action of steps) {
      const proposal = await fx.proposals.load(fx.workspace, fx.proposal.id);
      const result = await stack.commit(deps, await planReview(deps, proposal!, action));
      assert.ok(result.decided, action.kind);
      states.push(await snapshot(fx));
    }
    return states;
  }

  it('each accept and reject in turn, files, proposal and review memory together, from the stack kept in the store', async () => {
    const fx = await reviewFixture();
    const deps = depsOf(fx);
    const states = await decided(fx);
    assert.equal((await snapshot(fx)).proposal?.status, 'accepted');
    assert.deepEqual(
      (await new UndoStack(fx.store.dir, fx.workspace).entries()).map((e) => e.label),
      [
        `accepted rule ${RULES[0]} of proposal run-1`,
        `rejected rule ${FLAGGED_ID} of proposal run-1`,
        'accepted AGENTS.md of proposal run-1',
      ],
    );
    for (let back = steps.length - 1; back >= 0; back--) {
      // a new stack each time, as a reload or another front end reads it
      const undone = await new UndoStack(fx.store.dir, fx.workspace).undo(deps);
      assert.equal(undone.kind, 'undone', `step ${back}`);
      const now = await snapshot(fx);
      assert.deepEqual(now.files, states[back].files, `files after undoing step ${back}`);
      assert.deepEqual(now.proposal, states[back].proposal, `proposal after undoing step ${back}`);
      assert.deepEqual(now.memory, states[back].memory, `review memory after undoing step ${back}`);
    }
    assert.equal((await new UndoStack(fx.store.dir, fx.workspace).undo(deps)).kind, 'nothing');
    assert.ok(
      !existsSync(join(fx.workspace, '.github/copilot-instructions.md')),
      'a file a decision created is gone again',
    );
    // and the proposal decides as at first
    const again = await decide(deps, (await fx.proposals.load(fx.workspace, fx.proposal.id))!, {
      kind: 'accept-rules',
      ids: [RULES[0]],
    });
    assert.ok(again.decided);
    await checkInvariants(
      fx,
      new Map<string, State>(RULES.map((id) => [id, id === RULES[0] ? 'accepted' : 'pending'])),
      'after undoing all',
    );
  });

  it('never over an edit where the decision wrote: refused with the reason, no file, proposal or memory changed', async () => {
    const fx = await reviewFixture();
    const deps = depsOf(fx);
    const states = await decided(fx);
    // the team rewords the line the last decision added to AGENTS.md
    const edited = read(fx, 'AGENTS.md').replace(/^(.*\[bui-00003\].*)$/m, '$1 (reworded by the team)');
    assert.notEqual(edited, read(fx, 'AGENTS.md'));
    writeFileSync(join(fx.workspace, 'AGENTS.md'), edited);
    const refused = await new UndoStack(fx.store.dir, fx.workspace).undo(deps);
    assert.equal(refused.kind, 'changed-since');
    assert.ok(refused.kind === 'changed-since');
    assert.deepEqual(
      refused.changedSince.map((c) => c.path),
      ['AGENTS.md'],
    );
    assert.match(refused.changedSince[0].reason, /AGENTS\.md was edited since the decision/);
    const now = await snapshot(fx);
    assert.deepEqual(now.files, [states[3].files[0], edited, states[3].files[2]], 'no file is put back');
    assert.deepEqual(now.proposal, states[3].proposal);
    assert.deepEqual(now.memory, states[3].memory);
    assert.equal((await new UndoStack(fx.store.dir, fx.workspace).entries()).length, 3, 'the decision stays on top');
  });

  it('an edit elsewhere in a file is kept: only the decision is taken out of it', async () => {
    const fx = await reviewFixture();
    const deps = depsOf(fx);
    const states = await decided(fx);
    appendFileSync(join(fx.workspace, 'AGENTS.md'), '\nWritten by hand after the accept.\n');
    const undone = await new UndoStack(fx.store.dir, fx.workspace).undo(deps);
    assert.ok(undone.kind === 'undone', undone.kind);
    assert.deepEqual(undone.rebased, ['AGENTS.md']);
    assert.equal(read(fx, 'AGENTS.md'), `${states[2].files[1]}\nWritten by hand after the accept.\n`);
    assert.equal(read(fx, fx.playbookPath), states[2].files[0]);
  });

  it('a file the decision created and someone edited since is not deleted', async () => {
    const fx = await reviewFixture();
    const deps = depsOf(fx);
    const stack = new UndoStack(fx.store.dir, fx.workspace);
    const result = await stack.commit(
      deps,
      await planReview(deps, fx.proposal, { kind: 'accept-rules', ids: [RULES[0]] }),
    );
    assert.ok(
      result.outcome.writes.some((w) => w.path === '.github/copilot-instructions.md' && w.before === undefined),
    );
    appendFileSync(join(fx.workspace, '.github/copilot-instructions.md'), '\nmine\n');
    const refused = await stack.undo(deps);
    assert.ok(refused.kind === 'changed-since');
    assert.match(refused.changedSince[0].reason, /copilot-instructions\.md was edited since the decision created it/);
    assert.ok(read(fx, '.github/copilot-instructions.md').endsWith('\nmine\n'));
  });

  it('keeps the newest decisions only, up to its bound', async () => {
    const fx = await reviewFixture();
    const deps = depsOf(fx);
    const stack = new UndoStack(fx.store.dir, fx.workspace, 2);
    for (const action of steps) {
      const proposal = await fx.proposals.load(fx.workspace, fx.proposal.id);
      assert.ok((await stack.commit(deps, await planReview(deps, proposal!, action))).decided);
    }
    assert.deepEqual(
      (await stack.entries()).map((e) => e.label),
      [`rejected rule ${FLAGGED_ID} of proposal run-1`, 'accepted AGENTS.md of proposal run-1'],
    );
    assert.equal((await stack.undo(deps)).kind, 'undone');
    assert.equal((await stack.undo(deps)).kind, 'undone');
    assert.equal((await stack.undo(deps)).kind, 'nothing');
    assert.equal(
      (await fx.proposals.load(fx.workspace, fx.proposal.id))?.reviewed.rules.map((r) => r.id).join(),
      RULES[0],
      'the oldest decision, out of the bound, stays',
    );
  });
});

describe('a CLAUDE.md that imports AGENTS.md, through the review', () => {
  const OLD =
    '# Claude\n\nOurs.\n\n<!-- combee:begin generated by Combee -->\n- [bui-00001] Run `pnpm install` before anything else.\n<!-- combee:end -->\n';

  it("the old block's migration is a change of the file like any other: accepted with the rest, undone with it", async () => {
    const fx = await reviewFixture({ targets: ['playbook', 'agents-md', 'claude-md'], files: { 'CLAUDE.md': OLD } });
    const change = fx.proposal.files.find((f) => f.path === 'CLAUDE.md');
    assert.equal(change?.after, '# Claude\n\nOurs.\n\n@AGENTS.md\n');
    const deps = depsOf(fx);
    const result = await new UndoStack(fx.store.dir, fx.workspace).commit(
      deps,
      await planReview(deps, fx.proposal, { kind: 'accept-all' }),
    );
    assert.ok(result.decided);
    assert.equal(read(fx, 'CLAUDE.md'), '# Claude\n\nOurs.\n\n@AGENTS.md\n');
    for (const id of RULES.filter((r) => r !== FLAGGED_ID)) assert.ok(cites(read(fx, 'AGENTS.md'), id), id);
    assert.equal((await new UndoStack(fx.store.dir, fx.workspace).undo(deps)).kind, 'undone');
    assert.equal(read(fx, 'CLAUDE.md'), OLD);
  });

  it('a CLAUDE.md edited since the proposal was made is not overwritten: the decision is refused, the edit kept', async () => {
    const fx = await reviewFixture({ targets: ['playbook', 'agents-md', 'claude-md'], files: { 'CLAUDE.md': OLD } });
    writeFileSync(join(fx.workspace, 'CLAUDE.md'), OLD.replace('Ours.', 'Ours, edited.'));
    const deps = depsOf(fx);
    const result = await decide(deps, fx.proposal, { kind: 'accept-file', path: 'CLAUDE.md' });
    assert.equal(result.decided, false);
    assert.deepEqual(
      result.outcome.conflicts.map((c) => c.path),
      ['CLAUDE.md'],
    );
    assert.equal(read(fx, 'CLAUDE.md'), OLD.replace('Ours.', 'Ours, edited.'));
  });
});
