import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptCommand } from '../../../src/cli/commands/accept';
import type { Output } from '../../../src/cli/output';
import { makeFileChange, PROPOSAL_VERSION, type Proposal, type RuleChange } from '../../../src/core/assets/proposal';
import { offlineRoles } from '../../../src/core/llm/providers';
import { isSameRule } from '../../../src/core/learn/rules/sameRule';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { retiredBy } from '../../../src/core/service/ruleChanges/rememberRetired';
import { retireProposal } from '../../../src/core/service/ruleChanges/retireRule';
import { ProposalStore } from '../../../src/core/store/proposals';
import { ReviewMemory } from '../../../src/core/store/reviewMemory';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { tempDir } from '../../../testing/tmp';
import { pnpmCorrection } from '../../support/pnpmCorrection';

// A rule the team turned down, run after run: the sessions it was judged on never bring it back; new sessions may,
// and the proposal then says what was decided and when. Offline learner, so every run is reproducible.

const quiet: Output = { result: () => undefined, info: () => undefined, warn: () => undefined };

async function setup() {
  const root = tempDir('combee-decisions-');
  const workspace = join(root, 'shop');
  mkdirSync(join(workspace, '.combee'), { recursive: true });
  writeFileSync(join(workspace, 'AGENTS.md'), '# Shop\n');
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  const state = new WorkspaceState(store.dir);
  const proposals = new ProposalStore(state);
  const roles = offlineRoles();
  const learnOnce = (dryRun: boolean) =>
    learnWorkspace({
      store,
      proposals,
      workspace,
      ...roles,
      provider: roles.info,
      seed: 5,
      windowDays: 0,
      dryRun,
      assets: { targets: ['agents-md'] },
    });
  const add = async (ids: string[], firstDay: number) => {
    for (const [i, id] of ids.entries()) await store.saveTrace(pnpmCorrection(workspace, id, firstDay + i));
  };
  return { workspace, storeDir, state, proposals, learnOnce, add, memory: new ReviewMemory(state, workspace) };
}

/** The rule of the proposal that teaches pnpm over npm. */
function pnpmRule(proposal: Proposal | undefined): RuleChange | undefined {
  return proposal?.rules.find((r) => r.op === 'ADD' && /pnpm/.test(r.content ?? ''));
}

/** A rule of the proposal that is the same as `rule` (same words, or same purpose and section). */
function sameAs(proposal: Proposal | undefined, rule: RuleChange): RuleChange | undefined {
  return proposal?.rules.find(
    (r) =>
      r.content !== undefined &&
      isSameRule({ content: r.content, section: r.section }, { content: rule.content ?? '', section: rule.section }),
  );
}

const stable = (p: Proposal | undefined) => JSON.stringify({ files: p?.files, rules: p?.rules });

describe('decisions that stick', () => {
  it('a rejected rule is not proposed again from the same sessions; new sessions bring it back with a note', async function () {
    this.timeout(60_000);
    const ws = await setup();
    await ws.add(['a', 'b'], 1);
    const first = await ws.learnOnce(true);
    const rule = pnpmRule(first.proposal);
    assert.ok(rule, JSON.stringify(first.proposal?.rules.map((r) => r.content)));
    await ws.memory.rememberRejected([rule]);

    const again = await ws.learnOnce(true);
    assert.equal(sameAs(again.proposal, rule), undefined, 'the rejected rule came back from the same sessions');
    const skipped = again.record?.nodes.flatMap((n) => n.detail ?? []) ?? [];
    const recorded = (await ws.memory.load()).rejected[0].at.slice(0, 10);
    assert.ok(
      JSON.stringify(again.record).includes(`rejected in review on ${recorded}; no new evidence`),
      `the run says why it left the rule out: ${JSON.stringify(skipped).slice(0, 400)}`,
    );

    await ws.add(['c', 'd'], 10);
    const back = await ws.learnOnce(true);
    const returned = sameAs(back.proposal, rule);
    assert.ok(returned, 'new sessions bring it back for review');
    assert.ok(
      returned.notes?.includes(`rejected in review on ${recorded}; proposed again from 2 new sessions`),
      JSON.stringify(returned.notes),
    );
    // the same store and sessions: the same proposal, byte for byte
    assert.equal(stable(await ws.learnOnce(true).then((r) => r.proposal)), stable(back.proposal));
  });

  it('a retired rule is not proposed again from the sessions it was judged on; new ones bring it back, saying so', async function () {
    this.timeout(60_000);
    const ws = await setup();
    await ws.add(['a', 'b'], 1);
    const learned = await ws.learnOnce(false);
    const rule = pnpmRule(learned.proposal);
    assert.ok(learned.proposal && rule);
    assert.equal(
      await acceptCommand([learned.proposal.id, '--workspace', ws.workspace, '--store', ws.storeDir], quiet),
      0,
    );
    const playbookPath = '.combee/playbook.md';
    const retire = retireProposal({
      workspace: ws.workspace,
      ruleId: rule.id,
      reason: 'we moved to bun',
      assets: { playbookPath, targets: ['agents-md'] },
      now: new Date('2026-12-01T00:00:00Z'),
      warn: () => undefined,
    });
    assert.ok(retire);
    await ws.proposals.save(retire);
    assert.equal(await acceptCommand([retire.id, '--workspace', ws.workspace, '--store', ws.storeDir], quiet), 0);
    assert.doesNotMatch(readFileSync(join(ws.workspace, playbookPath), 'utf8'), new RegExp(rule.id));
    const memory = await ws.memory.load();
    assert.deepEqual(
      memory.retired.map((r) => [r.content, r.reason, [...r.traceIds].sort()]),
      [[rule.content, 'we moved to bun', ['claude:a', 'claude:b']]],
      'remembered with the sessions that supported it',
    );
    assert.ok(!memory.accepted.some((a) => a.content === rule.content), 'a decision, not a deletion to notice');

    // the same sessions learned again (as after forgetting what was learned, the decisions kept)
    rmSync(join(ws.state.dir(ws.workspace), 'learned.json'));
    const again = await ws.learnOnce(true);
    assert.equal(sameAs(again.proposal, rule), undefined, 'the retired rule came back from the same sessions');

    await ws.add(['c'], 10);
    const back = await ws.learnOnce(true);
    const returned = sameAs(back.proposal, rule);
    assert.ok(returned, 'a new session brings it back for review');
    const day = memory.retired[0].at.slice(0, 10);
    assert.ok(
      returned.notes?.[0] === `retired on ${day} (we moved to bun); proposed again from 1 new session`,
      JSON.stringify(returned.notes),
    );
    assert.equal(stable(await ws.learnOnce(true).then((r) => r.proposal)), stable(back.proposal));
  });

  it('an accepted lifecycle removal is remembered with the rule’s text and section, and the sessions it was judged on', () => {
    const before =
      '## Build and test\n[bat-00001] helpful=0 harmful=2 :: Install with `npm install`.\n[bat-00002] helpful=3 harmful=0 :: Run `pnpm test`.\n[bat-00003] helpful=0 harmful=0 :: Keep cents as integers.\n';
    const after = '## Build and test\n[bat-00003] helpful=0 harmful=0 :: Keep cents as integers.\n';
    const remove = (id: string, reason: string, traceIds: string[]) => ({
      ruleId: id,
      op: { op: 'REMOVE' as const, id, reason, support: traceIds.map((traceId) => ({ traceId, steps: [2] })) },
    });
    const proposal: Proposal = {
      version: PROPOSAL_VERSION,
      id: 'run-1',
      createdAt: '2026-11-30T10:00:00.000Z',
      workspace: '/ws',
      runId: 'run-1',
      provider: 'offline',
      model: 'm',
      costUsd: 0,
      status: 'pending',
      files: [makeFileChange('.combee/playbook.md', before, after)!],
      // a learn proposal's removals carry no text: it comes from the playbook they were proposed against
      rules: ['bat-00001', 'bat-00002', 'bat-00003'].map((id) => ({ id, op: 'REMOVE', support: [], flags: [] })),
      ops: [
        remove('bat-00001', 'harmful in 2 sessions', ['s5', 's6']),
        remove('bat-00002', 'over the budget', []),
        remove('bat-00003', 'stale', []),
      ],
      tags: [],
      counts: [],
      heldRules: [],
      reviewed: { files: [], rules: [] },
    };
    const counted: Record<string, string[]> = { 'bat-00001': ['s1', 's5'] };
    // bat-00002 was not accepted; bat-00003's removal did not land (the playbook still holds it)
    const retired = retiredBy(
      proposal,
      ['bat-00001', 'bat-00003'],
      '.combee/playbook.md',
      after,
      (id) => counted[id] ?? [],
    );
    assert.deepEqual(retired, [
      {
        id: 'bat-00001',
        content: 'Install with `npm install`.',
        section: 'Build and test',
        traceIds: ['s5', 's6', 's1'],
        reason: 'harmful in 2 sessions',
      },
    ]);
  });
});
