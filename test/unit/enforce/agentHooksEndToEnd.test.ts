import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptCommand } from '../../../src/cli/commands/accept';
import { retireCommand } from '../../../src/cli/commands/ruleChange';
import { undoCommand } from '../../../src/cli/commands/undo';
import type { Output } from '../../../src/cli/output';
import { DEFAULT_READ_LIMITS } from '../../../src/core/import/limits';
import { Proposal } from '../../../src/core/assets/proposal';
import { offlineRoles } from '../../../src/core/llm/providers';
import { learnWorkspace } from '../../../src/core/service/learnWorkspace';
import { ProposalStore } from '../../../src/core/store/proposals';
import { TraceStore } from '../../../src/core/store/traceStore';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import type { Trace } from '../../../src/core/trace/model';
import { git as runGit } from '../../../testing/gitRepo';
import { tempDir } from '../../../testing/tmp';
import { discoverSessions, importFile } from '../../support/importFiles';

// A prohibition Codex (or Cursor) sessions keep breaking, end to end: each run's sessions are files in the agent's own
// format, read by its reader; after the third broken one the proposal carries that agent's hook, replayed on its
// sessions; accepted, the hook runs as the agent runs it (the command its hooks file names, through a shell, the
// agent's JSON on stdin) and stops exactly the forbidden form, saying the rule and never the command.

const RULE = 'Use pnpm for packages, never `npm install`.';
const playbookWith = (rule: string) => `# Playbook\n\n## Setup\n[setu-00001] helpful=0 harmful=0 :: ${rule}\n`;
const quiet: Output = { result: () => undefined, info: () => undefined, warn: () => undefined };
const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

/** A session in the agent's format: one that follows the rule, or one that installs with npm and is corrected. */
type SessionFileWriter = (dir: string, workspace: string, run: number, broke: boolean) => void;

const uuid = (run: number, broke: boolean) => `0199aaaa-0000-7000-8000-0000000000${broke ? 'b' : 'a'}${run}`;

/** Codex rollouts (`{timestamp, type, payload}` lines), as Codex writes them under ~/.codex/sessions. */
const codexSession: SessionFileWriter = (dir, workspace, run, broke) => {
  const id = uuid(run, broke);
  const t = (s: number) => `2026-11-0${run + 1}T${broke ? 14 : 10}:00:${String(s).padStart(2, '0')}.000Z`;
  const env = (s: number, type: string, payload: unknown) => ({ timestamp: t(s), type, payload });
  const user = (s: number, text: string) => [
    env(s, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }),
    env(s, 'event_msg', { type: 'user_message', message: text, images: [] }),
  ];
  const exec = (s: number, call: string, cmd: string, exit: number, output: string) => [
    env(s, 'response_item', {
      type: 'function_call',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd }),
      call_id: call,
    }),
    env(s + 1, 'event_msg', {
      type: 'exec_command_end',
      call_id: call,
      command: ['bash', '-lc', cmd],
      exit_code: exit,
      aggregated_output: output,
    }),
    env(s + 1, 'response_item', { type: 'function_call_output', call_id: call, output }),
  ];
  const lines = [
    env(0, 'session_meta', { id, timestamp: t(0), cwd: workspace, originator: 'codex_cli_rs', cli_version: '0.130.0' }),
    env(1, 'turn_context', { cwd: workspace, model: 'gpt-5.5' }),
    ...(broke
      ? [
          ...user(2, 'add lodash-es to the app'),
          ...exec(3, 'c1', 'cd app && npm install lodash-es', 1, 'npm ERR! lockfile pnpm-lock.yaml does not match'),
          ...user(6, 'No, we use pnpm here, not npm.'),
          ...exec(7, 'c2', 'pnpm add lodash-es', 0, 'Done in 1.2s'),
        ]
      : [
          ...user(2, 'add zod to the api'),
          ...exec(3, 'c1', 'pnpm add zod', 0, 'Done in 0.9s'),
          ...exec(6, 'c2', 'pnpm test', 0, 'Tests: 12 passed'),
          ...user(9, 'thanks, works now'),
        ]),
  ];
  writeFileSync(join(dir, `rollout-2026-11-0${run + 1}T10-00-00-${id}.jsonl`), jsonl(lines));
};

/** Cursor CLI agent transcripts (`{role, message: {content[]}}` lines), which record no folder and no time. */
const cursorSession: SessionFileWriter = (dir, _workspace, run, broke) => {
  const id = uuid(run, broke);
  const user = (text: string) => ({
    role: 'user',
    message: { content: [{ type: 'text', text: `<user_query>\n${text}\n</user_query>` }] },
  });
  const shell = (call: string, command: string, output: string, isError: boolean) => [
    { role: 'assistant', message: { content: [{ type: 'tool_use', id: call, name: 'Shell', input: { command } }] } },
    {
      role: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: call, content: output, is_error: isError }] },
    },
  ];
  const lines = broke
    ? [
        user('add lodash-es to the app'),
        ...shell('t1', 'cd app && npm install lodash-es', 'npm ERR! lockfile pnpm-lock.yaml does not match', true),
        user('No, we use pnpm here, not npm.'),
        ...shell('t2', 'pnpm add lodash-es', 'Done in 1.2s', false),
        { type: 'turn_ended', status: 'success' },
      ]
    : [
        user('add zod to the api'),
        ...shell('t1', 'pnpm add zod', 'Done in 0.9s', false),
        ...shell('t2', 'pnpm test', 'Tests: 12 passed', false),
        user('thanks, works now'),
        { type: 'turn_ended', status: 'success' },
      ];
  mkdirSync(join(dir, 'agent-transcripts'), { recursive: true });
  writeFileSync(join(dir, 'agent-transcripts', `${id}.jsonl`), jsonl(lines));
};

interface AgentCase {
  agent: 'codex' | 'cursor';
  write: SessionFileWriter;
  config: string;
  /** The command the agent's hooks file runs Combee's hook with. */
  command: (config: unknown) => string;
  /** The JSON the agent sends on stdin for a shell command. */
  stdin: (command: string) => unknown;
  /** How the agent reads a refusal from the hook's exit code and output. */
  refused: (r: { status: number | null; stdout: string; stderr: string }) => string | undefined;
  passed: (r: { status: number | null; stdout: string; stderr: string }) => boolean;
}

const CASES: AgentCase[] = [
  {
    agent: 'codex',
    write: codexSession,
    config: '.codex/hooks.json',
    command: (c) =>
      (c as { hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> } }).hooks.PreToolUse[0].hooks[0]
        .command,
    stdin: (command) => ({
      session_id: 's1',
      turn_id: 't1',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_use_id: 'call-1',
      tool_input: { command },
    }),
    // Codex: exit code 2 stops the call, stderr is the reason the model is shown
    refused: (r) => (r.status === 2 && r.stdout === '' ? r.stderr : undefined),
    passed: (r) => r.status === 0 && r.stdout === '' && r.stderr === '',
  },
  {
    agent: 'cursor',
    write: cursorSession,
    config: '.cursor/hooks.json',
    command: (c) =>
      (c as { hooks: { beforeShellExecution: Array<{ command: string }> } }).hooks.beforeShellExecution[0].command,
    stdin: (command) => ({
      hook_event_name: 'beforeShellExecution',
      conversation_id: 'conv-1',
      generation_id: 'gen-1',
      workspace_roots: ['/tmp'],
      command,
      cwd: '/tmp',
    }),
    // Cursor: a `permission: "deny"` answer on stdout stops the call
    refused: (r) => {
      if (r.status !== 0) return undefined;
      const answer = JSON.parse(r.stdout) as { permission?: string; agent_message?: string; user_message?: string };
      return answer.permission === 'deny' ? `${answer.agent_message}\n${answer.user_message}` : undefined;
    },
    passed: (r) => r.status === 0 && JSON.stringify(JSON.parse(r.stdout)) === '{}' && r.stderr === '',
  },
];

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The agent's sessions of one run, read from their files by the importer's own reader, into the learning store. */
async function importRun(c: AgentCase, root: string, workspace: string, store: TraceStore, run: number) {
  const dir = join(root, `${c.agent}-sessions-${run}`);
  mkdirSync(dir, { recursive: true });
  c.write(dir, workspace, run, false);
  c.write(dir, workspace, run, true);
  const files = await discoverSessions(dir);
  assert.equal(files.length, 2);
  for (const file of files) {
    assert.equal(file.agent, c.agent);
    const { traces, warnings } = await importFile(file, DEFAULT_READ_LIMITS, {});
    assert.deepEqual(warnings, []);
    for (const trace of traces) {
      // Cursor's transcripts record neither folder nor time: the project folder they sit in names the workspace
      const broke = trace.steps.some((s) => s.kind === 'tool_call' && s.command?.includes('npm install'));
      const placed: Trace =
        c.agent === 'cursor'
          ? { ...trace, cwd: workspace, startedAt: `2026-11-0${run + 1}T${broke ? 14 : 10}:00:00.000Z` }
          : trace;
      await store.saveTrace(placed);
    }
  }
}

async function learnRuns(c: AgentCase, teamConfig?: string) {
  const root = tempDir(`combee-${c.agent}-enforce-`);
  const workspace = join(root, 'acme-shop');
  mkdirSync(join(workspace, '.combee'), { recursive: true });
  writeFileSync(join(workspace, '.combee', 'playbook.md'), playbookWith(RULE));
  writeFileSync(join(workspace, 'AGENTS.md'), `# Agents\n\n- [setu-00001] ${RULE}\n`);
  if (teamConfig !== undefined) {
    mkdirSync(join(workspace, c.config, '..'), { recursive: true });
    writeFileSync(join(workspace, c.config), teamConfig);
  }
  const git = (...args: string[]) => runGit(workspace, args, '2026-10-01T09:00:00Z');
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'rules');
  const storeDir = join(root, 'store');
  const store = new TraceStore(storeDir);
  const proposals = new ProposalStore(new WorkspaceState(store.dir));
  const roles = offlineRoles();
  const flags = ['--workspace', workspace, '--store', storeDir];
  let last: Proposal | undefined;
  for (let run = 0; run < 3; run++) {
    await importRun(c, root, workspace, store, run);
    const { proposal } = await learnWorkspace({
      store,
      proposals,
      workspace,
      ...roles,
      provider: roles.info,
      seed: 3,
      assets: { targets: ['agents-md'] },
    });
    assert.ok(proposal, `run ${run} proposes something`);
    if (run < 2) {
      assert.equal(proposal.enforcements, undefined, `run ${run}: nothing enforced yet`);
      assert.equal(await acceptCommand([proposal.id, ...flags], quiet), 0);
    }
    last = proposal;
  }
  return { workspace, flags, offered: last as Proposal };
}

/** Runs the hook as the agent does: the command its hooks file names, by a shell in a sub-folder of the project. */
function runAsAgent(c: AgentCase, workspace: string, command: string) {
  const config = JSON.parse(readFileSync(join(workspace, c.config), 'utf8'));
  mkdirSync(join(workspace, 'app'), { recursive: true });
  return spawnSync('/bin/sh', ['-c', c.command(config)], {
    cwd: join(workspace, 'app'),
    input: JSON.stringify(c.stdin(command)),
    encoding: 'utf8',
    env: { ...process.env, PATH: `${process.execPath.replace(/\/node$/, '')}:${process.env.PATH ?? ''}` },
  });
}

for (const c of CASES)
  describe(`enforcing a prohibition ${c.agent} sessions keep breaking`, () => {
    it(`offers a ${c.agent} hook after the third broken session, which stops exactly the forbidden form once accepted`, async function () {
      this.timeout(120_000);
      if (!hasGit() || !existsSync('/bin/sh')) this.skip();
      const team =
        c.agent === 'codex'
          ? `{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "pnpm lint" }] }]\n  }\n}\n`
          : undefined;
      const { workspace, flags, offered } = await learnRuns(c, team);
      assert.ok(Proposal.safeParse(offered).success);
      const [enforcement] = offered.enforcements ?? [];
      assert.ok(enforcement, 'offered');
      assert.deepEqual(enforcement.agents, [c.agent]);
      assert.deepEqual(enforcement.hooks, { [c.agent]: [['npm', 'install']] });
      assert.equal(enforcement.claudeCode, undefined, 'no Claude Code session broke it: no Claude Code hook');
      // replayed on the agent's own sessions, and said so
      assert.deepEqual(enforcement.replays, [
        { agent: c.agent, broke: { stopped: 3, of: 3 }, followed: { stopped: 0, of: 3 } },
      ]);
      assert.match(enforcement.explanation, /: 3 of 3 that broke it, 0 of 3 that followed it\)$/);
      const playbook = offered.files.find((f) => f.path === '.combee/playbook.md');
      assert.match(playbook?.after ?? '', new RegExp(`^enforced \\[setu-00001\\] ${c.agent}: \`npm install\``, 'm'));
      const paths = offered.files.map((f) => f.path);
      for (const path of [c.config, '.combee/hooks/combee-enforce.mjs', '.combee/hooks/combee-enforce.json'])
        assert.ok(paths.includes(path), `${path} in ${paths.join(', ')}`);
      assert.ok(!paths.some((p) => p.startsWith('.claude/')), 'nothing for Claude Code');
      assert.ok(!existsSync(join(workspace, '.combee', 'hooks')), 'nothing written before the accept');

      assert.equal(await acceptCommand([offered.id, ...flags], quiet), 0);
      if (team !== undefined)
        assert.deepEqual(
          JSON.parse(readFileSync(join(workspace, c.config), 'utf8')).hooks.Stop,
          JSON.parse(team).hooks.Stop,
          "the team's hooks stay",
        );
      for (const command of [
        'npm install lodash',
        'cd app && npm install',
        'FOO=1 npm install left-pad',
        'echo hi; npm i secret-pkg-7',
      ]) {
        const r = runAsAgent(c, workspace, command);
        const reason = c.refused(r);
        assert.ok(reason, `${command}: ${JSON.stringify(r)}`);
        assert.match(reason, /\[setu-00001\]/);
        assert.ok(reason.includes(RULE), reason);
        // the rule's words, never the command as typed (it may hold what redaction took out)
        for (const typed of ['lodash', 'left-pad', 'FOO=1', 'secret-pkg-7', 'echo hi'])
          assert.ok(!reason.includes(typed), reason);
      }
      for (const command of [
        'pnpm add lodash',
        'pnpm install',
        'npm view react version',
        'git commit -m "npm install"',
      ])
        assert.ok(c.passed(runAsAgent(c, workspace, command)), command);

      // retired with its rule: the agent's entry goes, the team's stay
      const out: string[] = [];
      assert.equal(
        await retireCommand(['setu-00001', ...flags, '--json'], { ...quiet, result: (t) => out.push(t) }),
        0,
      );
      const retire = Proposal.parse(JSON.parse(out.join('\n')).proposal);
      assert.equal(await acceptCommand([retire.id, ...flags], quiet), 0);
      const config = JSON.parse(readFileSync(join(workspace, c.config), 'utf8'));
      if (team !== undefined) assert.deepEqual(config, JSON.parse(team), "back to the team's hooks alone");
      else assert.deepEqual(config, { version: 1 }, 'no hook left in the file Combee made');
      assert.deepEqual(
        JSON.parse(readFileSync(join(workspace, '.combee/hooks/combee-enforce.json'), 'utf8')).agents,
        {},
      );
    });

    it('undone, takes the files and folders it created back out', async function () {
      this.timeout(120_000);
      if (!hasGit()) this.skip();
      const { workspace, flags, offered } = await learnRuns(c);
      assert.equal(await acceptCommand([offered.id, ...flags], quiet), 0);
      assert.ok(existsSync(join(workspace, c.config)));
      assert.equal(await undoCommand([...flags], quiet), 0);
      assert.ok(!existsSync(join(workspace, c.config)), `${c.config} gone`);
      assert.ok(!existsSync(join(workspace, c.config, '..')), 'and its folder, which Combee made');
      assert.ok(!existsSync(join(workspace, '.combee', 'hooks')), 'and the shared hook folder');
    });
  });
