import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'jsonc-parser';
import { HOOK_SCRIPT } from '../../../src/core/assets/enforce/hookScript';
import { enforcedRules } from '../../../src/core/assets/enforce/mark';
import { renderEnforcement } from '../../../src/core/assets/enforce/render';
import type { FileChange } from '../../../src/core/assets/proposal';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { tempDir } from '../../../testing/tmp';

// Each agent's hook format, from the playbook's mark to a hook the agent runs: its entry in the agent's own hooks
// file (the team's entries kept), and the shared script answering that agent's stdin in that agent's protocol. Codex
// and Cursor are also run end to end (agentHooksEndToEnd.test.ts).

const RULE = 'Use pnpm for packages, never `npm install`.';
const markedFor = (agents: string) =>
  parsePlaybook(
    `## Setup\n<!-- combee:enforced [setu-00001] ${agents} (stops 3 of 3 sessions that broke it, 0 of 1 that followed it) -->\n[setu-00001] helpful=0 harmful=0 :: ${RULE}\n`,
  );

function render(agents: string, files: Record<string, string> = {}) {
  const warnings: string[] = [];
  const changes = renderEnforcement({
    playbook: markedFor(agents),
    readFile: (rel) => files[rel],
    warn: (w) => warnings.push(w),
  });
  return { changes, warnings, file: (path: string) => changes.find((c) => c.path === path) };
}

/** The rendered files written into a fresh git repository (the hook commands find the root with git). */
function written(changes: readonly FileChange[]): string {
  const root = tempDir('combee-agent-hook-');
  execFileSync('git', ['init', '-q'], { cwd: root });
  for (const change of changes) {
    mkdirSync(dirname(join(root, change.path)), { recursive: true });
    writeFileSync(join(root, change.path), change.after);
  }
  mkdirSync(join(root, 'app'), { recursive: true });
  return root;
}

/** Runs a hook command as an agent does: through a shell, from a folder of the project, its JSON on stdin. */
function run(root: string, command: string, stdin: unknown) {
  return spawnSync('/bin/sh', ['-c', command], {
    cwd: join(root, 'app'),
    input: JSON.stringify(stdin),
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  });
}

const FORBIDDEN = ['npm install lodash', 'cd app && npm i left-pad', 'FOO=1 npm install secret-pkg-7'];
const ALLOWED = ['pnpm add lodash', 'npm view react version', 'git commit -m "npm install"'];
/** What a refusal may never hold: the command as typed. */
const TYPED = ['lodash', 'left-pad', 'FOO=1', 'secret-pkg-7'];

function hasShell(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return existsSync('/bin/sh');
  } catch {
    return false;
  }
}

describe('agent hook formats', () => {
  before(function () {
    if (!hasShell()) this.skip();
  });

  it('GitHub Copilot: its own file in .github/hooks, a deny decision on stdout for a bash tool call', () => {
    const { file, changes } = render('copilot: `npm install`');
    const config = JSON.parse(file('.github/hooks/combee-enforce.json')?.after ?? '');
    assert.equal(config.version, 1);
    const [entry] = config.hooks.preToolUse;
    assert.equal(entry.type, 'command');
    const root = written(changes);
    const call = (command: string, toolName = 'bash') => ({
      timestamp: 1704614600000,
      cwd: join(root, 'app'),
      toolName,
      toolArgs: JSON.stringify({ command, description: 'install' }),
    });
    for (const command of FORBIDDEN) {
      const r = run(root, entry.bash, call(command));
      assert.equal(r.status, 0, r.stderr);
      const answer = JSON.parse(r.stdout);
      assert.equal(answer.permissionDecision, 'deny', command);
      assert.match(answer.permissionDecisionReason, /\[setu-00001\]/);
      assert.ok(answer.permissionDecisionReason.includes(RULE));
      for (const typed of TYPED) assert.ok(!r.stdout.includes(typed), r.stdout);
    }
    for (const command of ALLOWED) assert.deepEqual(pick(run(root, entry.bash, call(command))), [0, '', ''], command);
    // another tool, or arguments it can't read: let through, nothing said
    assert.deepEqual(pick(run(root, entry.bash, call('npm install x', 'edit'))), [0, '', '']);
    assert.deepEqual(pick(run(root, entry.bash, { toolName: 'bash', toolArgs: '{not json' })), [0, '', '']);
    // the last rule out: the file stays Combee's, with no hook
    const off = renderEnforcement({
      playbook: parsePlaybook(`## Setup\n[setu-00001] helpful=0 harmful=0 :: ${RULE}\n`),
      readFile: (rel) => changes.find((c) => c.path === rel)?.after,
    });
    assert.deepEqual(JSON.parse(off.find((c) => c.path === '.github/hooks/combee-enforce.json')?.after ?? ''), {
      version: 1,
      hooks: {},
    });
    assert.deepEqual(
      JSON.parse(off.find((c) => c.path === '.combee/hooks/combee-enforce.json')?.after ?? '').agents,
      {},
    );
  });

  it("Gemini CLI: an entry merged into the team's .gemini/settings.json, exit 2 with the reason on stderr", () => {
    const team = `{
  // the team's settings
  "model": { "name": "gemini-2.5-pro" },
  "hooks": {
    "BeforeTool": [
      { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./guard.sh" }] }
    ]
  }
}
`;
    assert.match(
      render('gemini-cli: `npm install`').warnings.join('\n'),
      /no \.gemini\/settings\.json.*does not create/,
    );
    const { file, changes } = render('gemini-cli: `npm install`', { '.gemini/settings.json': team });
    const after = file('.gemini/settings.json')?.after ?? '';
    assert.ok(after.startsWith('{\n  // the team\'s settings\n  "model": { "name": "gemini-2.5-pro" },'), after);
    const settings = parse(after);
    assert.deepEqual(settings.hooks.BeforeTool[0], parse(team).hooks.BeforeTool[0]);
    const ours = settings.hooks.BeforeTool[1];
    assert.equal(ours.matcher, 'run_shell_command');
    const root = written(changes);
    const call = (command: string, tool = 'run_shell_command') => ({
      session_id: 's',
      hook_event_name: 'BeforeTool',
      tool_name: tool,
      tool_input: { command },
    });
    for (const command of FORBIDDEN) {
      const r = run(root, ours.hooks[0].command, call(command));
      assert.equal(r.status, 2, command);
      assert.equal(r.stdout, '', 'nothing but JSON may go to stdout: nothing at all');
      assert.ok(r.stderr.includes(RULE) && r.stderr.includes('[setu-00001]'));
      for (const typed of TYPED) assert.ok(!r.stderr.includes(typed), r.stderr);
    }
    for (const command of ALLOWED)
      assert.deepEqual(pick(run(root, ours.hooks[0].command, call(command))), [0, '', ''], command);
    assert.deepEqual(pick(run(root, ours.hooks[0].command, call('npm install', 'read_file'))), [0, '', '']);
  });

  it('Windsurf: an entry in .windsurf/hooks.json for pre_run_command, exit 2 with the reason on stderr', () => {
    const team = `{\n  "hooks": {\n    "post_write_code": [{ "command": "pnpm format", "show_output": false }]\n  }\n}\n`;
    const { file, changes } = render('windsurf: `npm install`', { '.windsurf/hooks.json': team });
    const config = JSON.parse(file('.windsurf/hooks.json')?.after ?? '');
    assert.deepEqual(config.hooks.post_write_code, JSON.parse(team).hooks.post_write_code);
    const [ours] = config.hooks.pre_run_command;
    assert.equal(ours.show_output, true);
    const root = written(changes);
    const call = (command: string) => ({
      agent_action_name: 'pre_run_command',
      trajectory_id: 't',
      execution_id: 'e',
      timestamp: '2026-11-01T10:00:00Z',
      tool_info: { command_line: command, cwd: join(root, 'app') },
    });
    for (const command of FORBIDDEN) {
      const r = run(root, ours.command, call(command));
      assert.equal(r.status, 2, command);
      assert.ok(r.stderr.includes(RULE));
      for (const typed of TYPED) assert.ok(!r.stderr.includes(typed), r.stderr);
    }
    for (const command of ALLOWED) assert.deepEqual(pick(run(root, ours.command, call(command))), [0, '', ''], command);
    // a new file when the repository has none
    assert.ok(render('windsurf: `npm install`').file('.windsurf/hooks.json'));
  });

  it('Claude Code: its refusal names the rule, never the command as typed', () => {
    const root = tempDir('combee-claude-hook-');
    writeFileSync(join(root, 'combee-enforce.mjs'), HOOK_SCRIPT);
    writeFileSync(
      join(root, 'combee-enforce.json'),
      JSON.stringify({ version: 1, rules: [{ id: 'setu-00001', text: RULE, commands: [['npm', 'install']] }] }),
    );
    for (const command of FORBIDDEN) {
      const r = spawnSync(process.execPath, [join(root, 'combee-enforce.mjs')], {
        input: JSON.stringify({ tool_name: 'Bash', tool_input: { command } }),
        encoding: 'utf8',
      });
      assert.equal(r.status, 2);
      for (const typed of TYPED) assert.ok(!r.stderr.includes(typed), r.stderr);
    }
  });

  it("reads each agent's commands from the mark, an old mark the same, and keeps only what the rule forbids", () => {
    const spec = enforcedRules(markedFor('codex: `npm install`, `git`; windsurf: `npm install`; cursor: `ls`'));
    assert.deepEqual(spec.get('setu-00001')?.spec, { codex: [['npm', 'install']], windsurf: [['npm', 'install']] });
    const old = enforcedRules(markedFor('claude-code: `npm install`'));
    assert.deepEqual(old.get('setu-00001')?.spec, { 'claude-code': [['npm', 'install']] });
    assert.equal(enforcedRules(markedFor('aider: `npm install`')).size, 0, 'no hook for an agent Combee has none for');
  });

  it("a hooks file it can't read is left alone, with a warning", () => {
    const { file, warnings } = render('cursor: `npm install`', { '.cursor/hooks.json': '{ "hooks": [' });
    assert.equal(file('.cursor/hooks.json'), undefined);
    assert.match(
      warnings.join('\n'),
      /Cursor enforcement of setu-00001 is left out: \.cursor\/hooks\.json is not a JSON object/,
    );
  });
});

function pick(r: { status: number | null; stdout: string; stderr: string }) {
  return [r.status, r.stdout, r.stderr];
}
