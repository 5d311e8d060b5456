import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptCommand, rejectCommand } from '../../../src/cli/commands/accept';
import type { Output } from '../../../src/cli/output';
import { applyFileChange } from '../../../src/core/assets/applyChange';
import { helpfulnessHistory } from '../../../src/core/learn/rules/helpfulness';
import { ruleStage } from '../../../src/core/learn/rules/ruleStanding';
import { offlineRoles } from '../../../src/core/llm/providers';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { bullets } from '../../../src/core/playbook/model';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { chooseRules } from '../../../src/core/service/proposalFiles';
import { playbookRules } from '../../../src/core/service/playbookRules';
import { ProposalStore } from '../../../src/core/store/proposals';
import { loadRunRecords } from '../../../src/core/store/runs';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { git as runGit } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

// A team's wrong rule (install with npm, in a pnpm repository) that the user overrules in two sessions, and a right
// one (the default test script is broken) whose prediction comes true in both: learned run by run and accepted
// through the CLI as a user would, the playbook file holds every counter the runs recorded, the views show the
// file's stage, and the overruled rule, once harmful, is proposed for replacing by the user's correction or retiring.

const PLAYBOOK = `# Playbook

## Tooling
[env-00001] helpful=0 harmful=0 :: Install packages with \`npm install <pkg>\`.

## Testing
[tst-00002] helpful=0 harmful=0 :: The default \`pnpm test\` is broken, use \`pnpm run test:ci\`.
`;
const AGENTS = `# Agents

- [env-00001] Install packages with \`npm install <pkg>\`.
- [tst-00002] The default \`pnpm test\` is broken, use \`pnpm run test:ci\`.
`;

const quiet: Output = { result: () => undefined, info: () => undefined, warn: () => undefined };

/** The session of run `run`: npm fails, the user asks for pnpm, pnpm works; the default test script fails as said. */
function overruled(workspace: string, run: number, pkg: string) {
  return makeTrace(
    `codex:overruled-${run}`,
    [
      user(`add ${pkg} and run the tests`),
      ...shell(`npm install ${pkg}`, 'npm ERR! lockfile pnpm-lock.yaml does not match package-lock.json', 1),
      user(`No, not npm install: we use pnpm here, run \`pnpm add ${pkg}\`.`),
      ...shell(`pnpm add ${pkg}`, 'Done in 1.2s'),
      ...shell('pnpm test', 'Error: no test specified', 1),
      ...shell('pnpm run test:ci', 'Tests 42 passed'),
      user('thanks'),
    ],
    { agent: 'codex', cwd: workspace, startedAt: `2026-11-0${run + 1}T10:00:00.000Z` },
  );
}

const acceptWith = (workspace: string, storeDir: string, id: string, ...rest: string[]) =>
  acceptCommand([id, '--workspace', workspace, '--store', storeDir, ...rest], quiet);

/** A git repository with the team's rules committed, an empty store, and the helpers a test reads it with. */
function setUp() {
  const root = tempDir('combee-counters-');
  const workspace = join(root, 'shop');
  mkdirSync(join(workspace, '.combee'), { recursive: true });
  writeFileSync(join(workspace, '.combee', 'playbook.md'), PLAYBOOK);
  writeFileSync(join(workspace, 'AGENTS.md'), AGENTS);
  const git = (...args: string[]) => runGit(workspace, args, '2026-10-01T09:00:00Z');
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'team rules');
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  const state = new WorkspaceState(store.dir);
  const proposals = new ProposalStore(state);
  const roles = offlineRoles();
  const learnOnce = () =>
    learnWorkspace({
      store,
      proposals,
      workspace,
      ...roles,
      provider: roles.info,
      seed: 5,
      assets: { targets: ['agents-md'] },
    });
  const file = () => bullets(parsePlaybook(readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8')));
  const counters = (id: string) => {
    const b = file().find((r) => r.id === id);
    return b && [b.helpful, b.harmful];
  };

  return { workspace, storeDir, store, state, proposals, learnOnce, counters };
}

describe('counters on accept', () => {
  it('writes every counter a run records into the playbook, whichever rules are accepted first; the views show the file’s stage', async function () {
    this.timeout(60_000);
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const { workspace, storeDir, store, state, proposals, learnOnce, counters } = setUp();

    // run 1: one overruled session; its new rules accepted by name, as the review offers (the counters went nowhere)
    await store.saveTrace(overruled(workspace, 0, 'zod'));
    const first = await learnOnce();
    assert.ok(first.proposal, 'run 1 proposes');
    assert.deepEqual(first.proposal.counts, [
      { id: 'env-00001', helpful: 0, harmful: 1 },
      { id: 'tst-00002', helpful: 1, harmful: 0 },
    ]);
    const [correction] = first.proposal.ops.filter((o) => o.op.op === 'ADD' && o.op.content.includes('pnpm add'));
    assert.ok(correction, 'the correction is proposed as a rule');
    const accept = (id: string, ...rest: string[]) => acceptWith(workspace, storeDir, id, ...rest);
    assert.equal(await accept(first.proposal.id, '--rule', correction.ruleId), 0);
    assert.deepEqual(counters('env-00001'), [0, 1]);
    assert.deepEqual(counters('tst-00002'), [1, 0]);
    // the rest of the proposal (left waiting) holds no counters: they are in the file, and count once
    const rest = await proposals.load(workspace, first.proposal.id);
    assert.deepEqual(rest?.counts, []);
    assert.ok(rest && rest.files.length > 0, 'the rest still waits');

    // run 2: overruled again, so harmful (harm ≥ help + 2): proposed for retiring, with both sessions, since the
    // correction that overruled it is a rule already (else it would be replaced by it)
    await store.saveTrace(overruled(workspace, 1, 'lodash-es'));
    const second = await learnOnce();
    assert.ok(second.proposal, 'run 2 proposes');
    const retire = second.proposal.ops.find((o) => o.ruleId === 'env-00001');
    assert.ok(retire?.op.op === 'REMOVE', JSON.stringify(retire));
    assert.match(retire.op.reason, /^harmful: tagged harmful 2× against helpful 0×/);
    assert.deepEqual(
      retire.op.support.map((s) => s.traceId),
      ['codex:overruled-0', 'codex:overruled-1'],
    );
    // accepted by name (the retirement alone): the other rule's counter goes in with it
    assert.equal(await accept(second.proposal.id, '--rule', 'env-00001'), 0);
    assert.equal(counters('env-00001'), undefined, 'retired');
    assert.deepEqual(counters('tst-00002'), [2, 0]);

    // the file holds what the runs recorded, and the views read the file's stage
    const trend = helpfulnessHistory(await loadRunRecords(state, workspace));
    assert.deepEqual(trend.get('tst-00002')?.at(-1), {
      at: trend.get('tst-00002')?.at(-1)?.at,
      helpful: 2,
      harmful: 0,
    });
    assert.deepEqual(
      [trend.get('env-00001')?.at(-1)?.helpful, trend.get('env-00001')?.at(-1)?.harmful],
      [0, 2],
      'the trend that reached harmful is what retired it',
    );
    const text = readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    const { rules } = await playbookRules(state, workspace, text);
    for (const b of bullets(parsePlaybook(text)))
      assert.equal(rules.find((r) => r.id === b.id)?.standing.stage, ruleStage(b.helpful, b.harmful), b.id);
  });

  it('carries the counters of a proposal left waiting into the next one, and counts them once', async function () {
    this.timeout(60_000);
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const { workspace, storeDir, store, proposals, learnOnce, counters } = setUp();
    await store.saveTrace(overruled(workspace, 0, 'zod'));
    const first = await learnOnce();
    assert.ok(first.proposal);
    // a second run before the first proposal is reviewed: its proposal holds both runs' counters
    await store.saveTrace(overruled(workspace, 1, 'lodash-es'));
    const second = await learnOnce();
    assert.ok(second.proposal);
    assert.deepEqual(second.proposal.counts, [
      { id: 'env-00001', helpful: 0, harmful: 2 },
      { id: 'tst-00002', helpful: 2, harmful: 0 },
    ]);
    // which makes the overruled rule harmful in this proposal: its retirement is proposed with both sessions
    const retire = second.proposal.ops.find((o) => o.ruleId === 'env-00001');
    assert.ok(retire?.op.op === 'REMOVE', JSON.stringify(retire));
    assert.deepEqual(
      retire.op.support.map((s) => s.traceId),
      ['codex:overruled-0', 'codex:overruled-1'],
    );
    // the first proposal gave way: superseded, its counters and its undecided rules (same ids) in the second
    const older = await proposals.load(workspace, first.proposal.id);
    assert.deepEqual(older?.counts, []);
    assert.equal(older?.status, 'superseded');
    assert.equal(older?.supersededBy, second.proposal.id);
    for (const rule of first.proposal.rules)
      assert.ok(
        second.proposal.rules.some((r) => r.id === rule.id),
        `${rule.id} is carried under its id`,
      );

    assert.equal(await acceptWith(workspace, storeDir, second.proposal.id), 0);
    assert.equal(counters('env-00001'), undefined, 'retired');
    assert.deepEqual(counters('tst-00002'), [2, 0]);
    // the first proposal tried afterwards is refused (superseded), and counts no session again
    assert.equal(await acceptWith(workspace, storeDir, first.proposal.id), 1);
    assert.deepEqual(counters('tst-00002'), [2, 0]);
  });

  it('carries the counters of a rejected proposal too: rejecting its rules is no verdict on the sessions', async function () {
    this.timeout(60_000);
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const { workspace, storeDir, store, proposals, learnOnce } = setUp();
    await store.saveTrace(overruled(workspace, 0, 'zod'));
    const first = await learnOnce();
    assert.ok(first.proposal);
    assert.equal(await rejectCommand([first.proposal.id, '--workspace', workspace, '--store', storeDir], quiet), 0);
    await store.saveTrace(overruled(workspace, 1, 'lodash-es'));
    const second = await learnOnce();
    assert.deepEqual(second.proposal?.counts, [
      { id: 'env-00001', helpful: 0, harmful: 2 },
      { id: 'tst-00002', helpful: 2, harmful: 0 },
    ]);
    assert.deepEqual((await proposals.load(workspace, first.proposal.id))?.counts, [], 'carried once');
    assert.equal((await proposals.load(workspace, first.proposal.id))?.status, 'rejected');
  });

  it('counts nothing twice when the playbook file was accepted alone and a rule is accepted by name after', async function () {
    this.timeout(60_000);
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const { workspace, store, proposals, learnOnce, counters } = setUp();
    await store.saveTrace(overruled(workspace, 0, 'zod'));
    const { proposal } = await learnOnce();
    assert.ok(proposal);
    // Accept File on the playbook, as the extension does it: written, and no longer in the proposal
    const playbookFile = proposal.files.find((f) => f.path === '.combee/playbook.md');
    assert.ok(playbookFile);
    await applyFileChange(workspace, playbookFile);
    const rest = { ...proposal, files: proposal.files.filter((f) => f !== playbookFile), status: 'partial' as const };
    await proposals.save(rest);
    assert.deepEqual(counters('tst-00002'), [1, 0]);
    const ruleId = rest.ops.find((o) => o.op.op === 'ADD')?.ruleId ?? '';
    const split = await chooseRules(store, rest, [ruleId], { playbookPath: '.combee/playbook.md' }, () => undefined);
    for (const file of split.chosen.files) await applyFileChange(workspace, file);
    assert.deepEqual(counters('tst-00002'), [1, 0]);
    for (const file of split.remaining(split.chosen.files.map((f) => f.path)).files)
      await applyFileChange(workspace, file);
    assert.deepEqual(counters('tst-00002'), [1, 0]);
  });
});
