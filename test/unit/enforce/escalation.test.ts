import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptCommand, rejectCommand } from '../../../src/cli/commands/accept';
import { retireCommand } from '../../../src/cli/commands/ruleChange';
import { undoCommand } from '../../../src/cli/commands/undo';
import { withEnforceHook } from '../../../src/core/assets/enforce/claudeSettings';
import { ENV_VALUE_TAG } from '../../../src/core/assets/masking/secretNames';
import type { Output } from '../../../src/cli/output';
import { Proposal } from '../../../src/core/assets/proposal';
import { offlineRoles } from '../../../src/core/llm/providers';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { git as runGit } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

// A prohibition Claude Code sessions keep breaking, learned run after run and accepted as a user would (the CLI):
// after the third session that broke it, the proposal carries a hook that stops the forbidden command; accepted, the
// hook runs as Claude Code would run it; retired with its rule, it goes.

const RULE = 'Use pnpm for packages, never `npm install`.';
/** Worded already as a rewording would word it: sessions that break it leave it as it is. */
const PLAIN_RULE = 'Always run `pnpm add` to add packages, never `npm install`.';
const playbookWith = (rule: string) => `# Playbook\n\n## Setup\n[setu-00001] helpful=0 harmful=0 :: ${rule}\n`;
const claudeMdWith = (rule: string) => `# Claude\n\n- [setu-00001] ${rule}\n`;
/** The team's own settings: a permission and another PreToolUse hook, which the enforcement leaves as they are. */
const SETTINGS = `{
    "permissions": { "allow": ["Bash(pnpm test:*)"] },
    "hooks": {
        "PreToolUse": [
            { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "./scripts/guard.sh" }] }
        ],
        "PostToolUse": [{ "matcher": "Edit", "hooks": [{ "type": "command", "command": "pnpm format" }] }]
    }
}
`;

const quiet: Output = { result: () => undefined, info: () => undefined, warn: () => undefined };
const git = (cwd: string, ...args: string[]) => runGit(cwd, args, '2026-10-01T09:00:00Z');

/** Run `run`'s sessions: one follows the rule; one installs with npm, fails, is corrected and uses pnpm. */
function sessions(workspace: string, run: number, contributor?: string) {
  const day = `2026-11-${String(run + 1).padStart(2, '0')}`;
  const base = { agent: 'claude-code' as const, cwd: workspace, ...(contributor ? { contributor } : {}) };
  return [
    makeTrace(
      `claude-code:good-${run}`,
      [
        user('add zod to the api'),
        ...shell('pnpm add zod', 'Done in 0.9s'),
        ...shell('pnpm test', 'Tests: 12 passed'),
        user('thanks, works now'),
      ],
      { ...base, startedAt: `${day}T10:00:00.000Z` },
    ),
    makeTrace(
      `claude-code:bad-${run}`,
      [
        user('add lodash-es to the app'),
        ...shell('cd app && npm install lodash-es', 'npm ERR! lockfile pnpm-lock.yaml does not match', 1),
        user('No, we use pnpm here, not npm.'),
        ...shell('pnpm add lodash-es', 'Done in 1.2s'),
      ],
      { ...base, startedAt: `${day}T14:00:00.000Z` },
    ),
  ];
}

/** Runs the written hook as Claude Code does: the tool call as JSON on stdin, from the project folder. */
function runHook(workspace: string, command: string) {
  return spawnSync(process.execPath, [join(workspace, '.claude', 'hooks', 'combee-enforce.mjs')], {
    cwd: workspace,
    input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }),
    encoding: 'utf8',
  });
}

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A repository whose Claude Code sessions break the rule once a run, learned `runs` times (all but the last accepted). */
async function learnRuns(runs: number, rule = RULE, settings = SETTINGS, contributor?: string) {
  const root = tempDir('combee-enforce-');
  const workspace = join(root, 'acme-shop');
  mkdirSync(join(workspace, '.combee'), { recursive: true });
  mkdirSync(join(workspace, '.claude'), { recursive: true });
  writeFileSync(join(workspace, '.combee', 'playbook.md'), playbookWith(rule));
  writeFileSync(join(workspace, 'CLAUDE.md'), claudeMdWith(rule));
  writeFileSync(join(workspace, '.claude', 'settings.json'), settings);
  git(workspace, 'init', '-q');
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-q', '-m', 'rules');
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  const proposals = new ProposalStore(new WorkspaceState(store.dir));
  const roles = offlineRoles();
  const flags = ['--workspace', workspace, '--store', storeDir];

  const made: Proposal[] = [];
  const learnRun = async (run: number) => {
    for (const trace of sessions(workspace, run, contributor)) await store.saveTrace(trace);
    const { proposal } = await learnWorkspace({
      store,
      proposals,
      workspace,
      ...roles,
      provider: roles.info,
      seed: 3,
      assets: { targets: ['claude-md'] },
    });
    return proposal;
  };
  for (let run = 0; run < runs; run++) {
    const proposal = await learnRun(run);
    assert.ok(proposal, `run ${run} proposes something`);
    made.push(proposal);
    if (run < runs - 1) {
      // one or two broken sessions: nothing enforced yet
      assert.equal(proposal.enforcements, undefined, `run ${run}`);
      assert.ok(!proposal.files.some((f) => f.path.startsWith('.claude/')), `run ${run}: no hook file`);
      assert.equal(await acceptCommand([proposal.id, ...flags], quiet), 0);
    }
  }

  return { workspace, store, proposals, flags, made, learn: learnRun };
}

describe('enforcing a prohibition sessions keep breaking', () => {
  it('offers a Claude Code hook after the third broken session, writes it on accept, and takes it out with the rule', async function () {
    this.timeout(120_000);
    if (!hasGit()) this.skip();
    const { workspace, flags, made } = await learnRuns(3);
    const offered = made[2];
    assert.ok(Proposal.safeParse(offered).success);
    assert.equal(offered.enforcements?.length, 1, JSON.stringify(offered.enforcements));
    const [enforcement] = offered.enforcements ?? [];
    assert.equal(enforcement.ruleId, 'setu-00001');
    assert.deepEqual(enforcement.agents, ['claude-code']);
    // the sessions themselves: each that broke it stopped, none that followed it
    assert.deepEqual(enforcement.broke, { stopped: 3, of: 3 });
    assert.deepEqual(enforcement.followed, { stopped: 0, of: 3 });
    assert.match(enforcement.explanation, /stops 3 of the 3 sessions that broke it .* and 0 of the 3 that followed it/);
    // reworded in the same proposal: the rewording says so where it is reviewed
    const reworded = offered.rules.find((r) => r.id === 'setu-00001');
    assert.equal(reworded?.op, 'UPDATE');
    assert.ok(reworded?.notes?.includes(enforcement.explanation), JSON.stringify(reworded?.notes));
    // only the commands the sessions ran that the rule forbids: `npm install`, not `npm i` nor `npm add`
    assert.ok(enforcement.claudeCode?.some((m) => m.join(' ') === 'npm install'));
    assert.ok(!enforcement.claudeCode?.some((m) => m.join(' ') === 'npm i'));
    const playbookDiff = offered.files.find((f) => f.path === '.combee/playbook.md');
    assert.match(playbookDiff?.after ?? '', /^enforced \[setu-00001\] claude-code: `npm install`/m);
    const paths = offered.files.map((f) => f.path);
    for (const path of [
      '.claude/settings.json',
      '.claude/hooks/combee-enforce.mjs',
      '.claude/hooks/combee-enforce.json',
    ])
      assert.ok(paths.includes(path), `${path} in ${paths.join(', ')}`);
    // nothing is written before the accept
    assert.ok(!existsSync(join(workspace, '.claude', 'hooks')));

    assert.equal(await acceptCommand([offered.id, ...flags], quiet), 0);
    const settings = JSON.parse(readFileSync(join(workspace, '.claude', 'settings.json'), 'utf8'));
    const mine = JSON.parse(SETTINGS);
    // the team's keys and hooks as they were, Combee's entry after theirs
    assert.deepEqual(settings.permissions, mine.permissions);
    assert.deepEqual(settings.hooks.PostToolUse, mine.hooks.PostToolUse);
    assert.deepEqual(settings.hooks.PreToolUse[0], mine.hooks.PreToolUse[0]);
    assert.deepEqual(settings.hooks.PreToolUse[1], {
      matcher: 'Bash',
      hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/combee-enforce.mjs' }],
    });
    assert.match(readFileSync(join(workspace, '.claude', 'settings.json'), 'utf8'), /^ {4}"permissions"/m);

    // the written script, run as Claude Code runs it
    for (const command of [
      'npm install lodash',
      'cd app && npm install',
      'FOO=1 npm install x',
      'echo hi; npm install',
    ]) {
      const blocked = runHook(workspace, command);
      assert.equal(blocked.status, 2, command);
      assert.match(blocked.stderr, /\[setu-00001\]/);
      assert.ok(blocked.stderr.includes(RULE), blocked.stderr);
      assert.equal(blocked.stdout, '', 'it never prints a decision');
    }
    for (const command of [
      'pnpm add lodash',
      'pnpm install',
      'npm view react version',
      'git commit -m "npm install"',
    ]) {
      const passed = runHook(workspace, command);
      assert.equal(passed.status, 0, `${command}: ${passed.stderr}`);
      assert.equal(passed.stdout + passed.stderr, '');
    }

    // retired: the rule, its mark and its enforcement go together; the team's settings stay
    const out: string[] = [];
    const capture: Output = { ...quiet, result: (t) => out.push(t) };
    assert.equal(await retireCommand(['setu-00001', ...flags, '--json'], capture), 0);
    const retire = Proposal.parse(JSON.parse(out.join('\n')).proposal);
    const data = retire.files.find((f) => f.path === '.claude/hooks/combee-enforce.json');
    assert.ok(data, retire.files.map((f) => f.path).join(', '));
    assert.deepEqual(JSON.parse(data.after).rules, []);
    assert.equal(await acceptCommand([retire.id, ...flags], quiet), 0);
    assert.ok(!readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8').includes('enforced ['));
    const after = JSON.parse(readFileSync(join(workspace, '.claude', 'settings.json'), 'utf8'));
    assert.deepEqual(after, mine, 'back to the team settings alone');
    assert.equal(runHook(workspace, 'npm install lodash').status, 0, 'the command is no longer stopped');
  });

  it('offers it once: turned down, the next run does not offer it again', async function () {
    this.timeout(120_000);
    if (!hasGit()) this.skip();
    const { flags, made, learn } = await learnRuns(3, PLAIN_RULE);
    assert.equal(made[2].enforcements?.length, 1);
    assert.ok(!made[2].ops.some((o) => o.ruleId === 'setu-00001'), 'no rewording: the rule stays worded as it was');
    assert.equal(await rejectCommand([made[2].id, ...flags], quiet), 0);
    const next = await learn(3);
    assert.equal(next?.enforcements, undefined);
    assert.ok(!next?.files.some((f) => f.path.startsWith('.claude/')));
  });

  it('left waiting, it is offered again by the run whose proposal supersedes the one that offered it', async function () {
    this.timeout(120_000);
    if (!hasGit()) this.skip();
    const { made, learn } = await learnRuns(3, PLAIN_RULE);
    assert.equal(made[2].enforcements?.length, 1);
    const next = await learn(3);
    assert.ok(next, 'the fourth run proposes');
    assert.deepEqual(next.supersedes, [made[2].id]);
    assert.equal(next.enforcements?.length, 1, 'the enforcement is not lost with the proposal it was in');
    assert.ok(next.files.some((f) => f.path.startsWith('.claude/')));
  });

  it('stays offered when the rewording beside it is turned down by name, and is written with what is left', async function () {
    this.timeout(120_000);
    if (!hasGit()) this.skip();
    const { workspace, flags, made, proposals } = await learnRuns(3);
    const offered = made[2];
    assert.equal(await rejectCommand([offered.id, '--rule', 'setu-00001', ...flags], quiet), 0);
    const left = await proposals.load(workspace, offered.id);
    assert.ok(
      left?.files.some((f) => f.path === '.claude/hooks/combee-enforce.mjs'),
      JSON.stringify(left?.files.map((f) => f.path)),
    );
    assert.equal(await acceptCommand([offered.id, ...flags], quiet), 0);
    const playbook = readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8');
    assert.match(playbook, /^enforced \[setu-00001\] /m);
    assert.ok(playbook.includes(`:: ${RULE}`), 'the rule as it was worded');
    assert.equal(runHook(workspace, 'npm install lodash').status, 2);
  });

  it("keeps the team's env secrets on disk and out of everything Combee stores: proposal, undo stack, run records", async function () {
    this.timeout(120_000);
    if (!hasGit()) this.skip();
    const apiKey = 'sk-ant-api03-Q7vTz2LmW9xKp4RsYb8NcD1fHj6GaE3u';
    const dbPassword = 'pw-4f9K2xQz7LmT';
    const withEnv = SETTINGS.replace(
      '{\n',
      `{\n    "env": { "ANTHROPIC_API_KEY": "${apiKey}",\n             "DB_PASSWORD": "${dbPassword}", "RETRIES": 3 },\n`,
    );
    const { workspace, store, flags, made } = await learnRuns(3, RULE, withEnv);
    const settingsPath = join(workspace, '.claude', 'settings.json');
    const change = made[2].files.find((f) => f.path === '.claude/settings.json');
    assert.ok(change, 'the hook is offered');
    for (const text of [change.before, change.after, change.diff])
      assert.ok(!text.includes(apiKey) && !text.includes(dbPassword), text);
    assert.ok(change.after.includes(`"DB_PASSWORD": "${ENV_VALUE_TAG}"`), change.after);
    /** Every file under the store, read as text, that holds a secret of the settings. */
    const leaks = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) return leaks(full);
        const text = readFileSync(full, 'latin1');
        return text.includes(apiKey) || text.includes(dbPassword) ? [full] : [];
      });

    assert.equal(await acceptCommand([made[2].id, ...flags], quiet), 0);
    // on disk the team's values are untouched: only the lines of Combee's entry were added
    assert.equal(readFileSync(settingsPath, 'utf8'), withEnforceHook(withEnv, true));
    assert.deepEqual(leaks(store.dir), [], 'the proposal, the undo stack and the run records hold no env value');

    assert.equal(await undoCommand([...flags], quiet), 0);
    assert.equal(readFileSync(settingsPath, 'utf8'), withEnv, 'undone: the file as the team wrote it');
    assert.deepEqual(leaks(store.dir), []);
  });

  it("holds it team-only when only team bundles' sessions broke the rule: a plain accept writes no hook", async function () {
    this.timeout(120_000);
    if (!hasGit()) this.skip();
    const { workspace, flags, made } = await learnRuns(3, PLAIN_RULE, SETTINGS, 'teammate');
    const [held] = made[2].enforcements ?? [];
    assert.ok(held, 'offered, held');
    assert.deepEqual(
      held.flags?.map((f) => f.kind),
      ['team-only'],
    );
    assert.equal(held.mark, undefined);
    assert.ok(!made[2].files.some((f) => f.path.startsWith('.claude/')), 'no hook file');
    assert.equal(await acceptCommand([made[2].id, ...flags], quiet), 0);
    assert.ok(!existsSync(join(workspace, '.claude', 'hooks')));
    assert.ok(!readFileSync(join(workspace, '.combee', 'playbook.md'), 'utf8').includes('enforced ['));
    assert.equal(readFileSync(join(workspace, '.claude', 'settings.json'), 'utf8'), SETTINGS);
  });
});
