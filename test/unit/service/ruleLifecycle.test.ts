import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptCommand } from '../../../src/cli/commands/accept';
import { rulesCommand } from '../../../src/cli/commands/rules';
import type { Output } from '../../../src/cli/output';
import type { Proposal } from '../../../src/core/assets/proposal';
import { offlineRoles } from '../../../src/core/llm/providers';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { bullets } from '../../../src/core/playbook/model';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { playbookRules } from '../../../src/core/service/playbookRules';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { loadRunRecords } from '../../../src/core/store/runs';
import { loadLayout } from '../../../src/core/learn/record/layout';
import { git as runGit } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

// Several runs over generated sessions of one repository, each proposal accepted as a user would (the CLI): one rule
// keeps helping, one keeps being broken, one is never in play. Counters, stages and the proposals the standing asks
// for come out of the sessions alone; learning the same sessions again counts nothing twice.

const PLAYBOOK = `# Playbook

## Build and test
[bat-00001] helpful=0 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`.

## Conventions
[conv-00002] helpful=0 harmful=0 :: This repo uses pnpm, never npm.

## Architecture
[arch-00003] helpful=0 harmful=0 :: Keep billing amounts in integer cents.
`;

const AGENTS = `# Agents

- [bat-00001] Run \`pnpm db:generate\` before \`pnpm test\`.
- [conv-00002] This repo uses pnpm, never npm.
`;
const BILLING_AGENTS = `# Billing

- [arch-00003] Keep billing amounts in integer cents.
`;

const quiet: Output = { result: () => undefined, info: () => undefined, warn: () => undefined };

function capture(): Output & { text: () => string } {
  const lines: string[] = [];
  return { ...quiet, result: (t) => lines.push(t), text: () => lines.join('\n') };
}

/** git as a fixed user, its commits dated 2026-10-01 (the history the rules' evidence reads). */
const git = (cwd: string, ...args: string[]) => runGit(cwd, args, '2026-10-01T09:00:00Z');

/**
 * Run `run`'s two sessions: one follows the generate-then-test rule and is thanked; one uses npm, fails, is corrected
 * and then does it the rule's way.
 */
function sessions(workspace: string, run: number) {
  const day = `2026-11-${String(run + 1).padStart(2, '0')}`;
  const base = { agent: 'codex' as const, cwd: workspace };
  return [
    makeTrace(
      `codex:good-${run}`,
      [
        user('the cart tests fail, can you fix them?'),
        ...shell('pnpm db:generate', 'Generated Prisma Client'),
        ...shell('pnpm test', 'Tests: 42 passed'),
        user('thanks, works now'),
      ],
      { ...base, startedAt: `${day}T10:00:00.000Z` },
    ),
    makeTrace(
      `codex:bad-${run}`,
      [
        user('add lodash-es to the app'),
        ...shell('npm install lodash-es', 'npm ERR! lockfile pnpm-lock.yaml does not match package-lock.json', 1),
        user('No, we use pnpm here, not npm.'),
        ...shell('pnpm add lodash-es', 'Done in 1.2s'),
      ],
      { ...base, startedAt: `${day}T14:00:00.000Z` },
    ),
  ];
}

describe('rule helpfulness over several runs', () => {
  it('proves the rule that keeps helping, proposes rewording the one sessions keep breaking, retiring the one never in play; counts nothing twice', async function () {
    this.timeout(120_000);
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const root = tempDir('combee-lifecycle-');
    const workspace = join(root, 'acme-shop');
    mkdirSync(join(workspace, '.combee'), { recursive: true });
    mkdirSync(join(workspace, 'services', 'billing'), { recursive: true });
    writeFileSync(join(workspace, '.combee', 'playbook.md'), PLAYBOOK);
    writeFileSync(join(workspace, 'AGENTS.md'), AGENTS);
    writeFileSync(join(workspace, 'services', 'billing', 'AGENTS.md'), BILLING_AGENTS);
    git(workspace, 'init', '-q');
    git(workspace, 'add', '.');
    git(workspace, 'commit', '-q', '-m', 'rules');
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
        seed: 3,
        assets: { targets: ['agents-md'] },
      });
    const playbook = () => parsePlaybook(readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8'));
    const rule = (id: string) => bullets(playbook()).find((b) => b.id === id);
    const made: Proposal[] = [];

    for (let run = 0; run < 6; run++) {
      for (const trace of sessions(workspace, run)) await store.saveTrace(trace);
      const { proposal } = await learnOnce();
      assert.ok(proposal, `run ${run} proposes the counters it moved`);
      made.push(proposal);
      assert.equal(await acceptCommand([proposal.id, '--workspace', workspace, '--store', storeDir], quiet), 0);
    }

    // the helping rule: helpful once per session that followed it, proven
    const helping = rule('bat-00001');
    assert.ok(helping && helping.helpful >= 3 && helping.harmful === 0, `bat-00001 ${JSON.stringify(helping)}`);
    // the broken rule: each npm session broke it, failed and then passed with pnpm; once three had, its rewording was
    // proposed with them as evidence
    const rewrites = made.flatMap((p) => p.ops).filter((o) => o.ruleId === 'conv-00002' && o.op.op === 'UPDATE');
    assert.equal(rewrites.length, 1, 'reworded once, not again at every run that still breaks it');
    const [rewrite] = rewrites;
    assert.ok(rewrite, 'a rewrite of the rule sessions keep breaking');
    assert.equal(
      rewrite.op.op === 'UPDATE' && rewrite.op.content,
      'To install packages, always run `pnpm add`, never `npm install` (it failed in 3 sessions here). This repo uses pnpm, never npm.',
    );
    assert.ok(rewrite.op.support.length >= 3 && rewrite.op.support.every((s) => s.traceId.startsWith('codex:bad-')));
    // the rule no session had in play (its folder's AGENTS.md, no session worked there): proposed for retiring
    const retire = made.flatMap((p) => p.ops).find((o) => o.ruleId === 'arch-00003' && o.op.op === 'REMOVE');
    assert.ok(retire && retire.op.op === 'REMOVE' && retire.op.reason.startsWith('stale'), JSON.stringify(retire));
    assert.equal(rule('arch-00003'), undefined, 'accepted: retired');
    // in the run's tree as an apply node of its own, with a place in the stored layout
    const records = await loadRunRecords(state, workspace);
    const upkeep = records.find((r) => r.nodes.some((n) => n.id.endsWith(':lifecycle')));
    assert.ok(upkeep?.layout && loadLayout(upkeep.layout, upkeep.nodes), 'the stored layout fits its nodes');
    const forProven = made.flatMap((p) => p.ops).filter((o) => o.ruleId === 'bat-00001');
    assert.deepEqual(forProven, [], 'nothing proposed for a proven rule');

    // learned again from scratch (the learned sessions forgotten, the same traces re-imported): nothing counts twice
    const before = rule('bat-00001');
    rmSync(join(state.dir(workspace), 'learned.json'));
    for (let run = 0; run < 6; run++) for (const trace of sessions(workspace, run)) await store.saveTrace(trace);
    const again = await learnOnce();
    assert.deepEqual(again.proposal?.counts ?? [], [], 'no counter moves on re-learning');
    assert.deepEqual(rule('bat-00001'), before);

    // the Rules view, the panel and `combee rules --json` read the same numbers as the file
    const text = readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    const { rules } = await playbookRules(state, workspace, text);
    const out = capture();
    assert.equal(await rulesCommand(['--workspace', workspace, '--store', storeDir, '--json'], out), 0);
    const cli = JSON.parse(out.text()) as {
      rules: Array<{ id: string; helpful: number; harmful: number; stage: string }>;
    };
    for (const b of bullets(parsePlaybook(text))) {
      const view = rules.find((r) => r.id === b.id);
      const json = cli.rules.find((r) => r.id === b.id);
      assert.deepEqual([view?.helpful, view?.harmful], [b.helpful, b.harmful], b.id);
      assert.deepEqual([json?.helpful, json?.harmful, json?.stage], [b.helpful, b.harmful, view?.standing.stage], b.id);
    }
    assert.equal(rules.find((r) => r.id === 'bat-00001')?.standing.stage, 'proven');
    // still broken after its rewording: marked, and not reworded again
    assert.ok(rules.find((r) => r.id === 'conv-00002')?.standing.chips.includes('violated'));
  });
});
