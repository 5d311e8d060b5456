import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withEnforceHook } from '../../../src/core/assets/enforce/claudeSettings';
import { HOOK_COMMAND } from '../../../src/core/assets/enforce/hookScript';
import { enforcedMarkLine, withEnforcedMark } from '../../../src/core/assets/enforce/mark';
import { committedPaths, withPreCommitLine } from '../../../src/core/assets/enforce/preCommit';
import { renderEnforcement } from '../../../src/core/assets/enforce/render';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { tempDir } from '../../../testing/tmp';

const ENV_RULE = 'Never commit `.env` files: secrets live in the vault.';
const marked = (mark: string) =>
  withEnforcedMark(
    parsePlaybook(`## Conventions\n[conv-00004] helpful=0 harmful=0 :: ${ENV_RULE}\n`),
    'conv-00004',
    mark,
  );

describe('enforcement files', () => {
  it("merge Combee's hook into a settings.json with hooks of its own, and take it out again, touching nothing else", () => {
    const team = {
      model: 'opus',
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: './w.sh' }] },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'pnpm test' }] }],
      },
    };
    const text = `${JSON.stringify(team, null, 2)}\n`;
    const on = withEnforceHook(text, true);
    assert.ok(on);
    const parsed = JSON.parse(on);
    assert.deepEqual(parsed.hooks.PreToolUse.slice(0, 2), team.hooks.PreToolUse);
    assert.deepEqual(parsed.hooks.PreToolUse[2], {
      matcher: 'Bash',
      hooks: [{ type: 'command', command: HOOK_COMMAND }],
    });
    assert.deepEqual(parsed.hooks.Stop, team.hooks.Stop);
    assert.equal(parsed.model, 'opus');
    assert.equal(withEnforceHook(on, true), on, 'present already: unchanged');
    assert.deepEqual(JSON.parse(withEnforceHook(on, false) ?? ''), team);
    // our command inside the team's own entry: only it goes
    const shared = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: './g.sh' },
              { type: 'command', command: HOOK_COMMAND },
            ],
          },
        ],
      },
    };
    assert.deepEqual(JSON.parse(withEnforceHook(JSON.stringify(shared), false) ?? '').hooks.PreToolUse, [
      { matcher: 'Bash', hooks: [{ type: 'command', command: './g.sh' }] },
    ]);
    // a new file holds the entry alone; a damaged one is left alone
    assert.deepEqual(JSON.parse(withEnforceHook(undefined, true) ?? ''), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: HOOK_COMMAND }] }] },
    });
    assert.equal(withEnforceHook('{ "hooks": [', true), undefined);
    assert.equal(withEnforceHook('{"hooks": {"PreToolUse": {}}}', true), undefined);
  });

  it('read the paths a rule says never to commit', () => {
    assert.deepEqual(committedPaths(ENV_RULE), ['.env']);
    assert.deepEqual(committedPaths("Don't commit `dist/` or secrets/prod.key; they are built."), [
      'dist',
      'secrets/prod.key',
    ]);
    assert.deepEqual(committedPaths('Commit `.env.example` with every new variable.'), []);
    assert.deepEqual(committedPaths('Never commit `../../etc/passwd` or `$(id)`.'), []);
  });

  it('add a pre-commit check to a repository with .githooks/pre-commit, which refuses a staged .env', function () {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    const repo = tempDir('combee-precommit-');
    const files = new Map<string, string>([['.githooks/pre-commit', '#!/bin/sh\nnpm run lint\n']]);
    const why = 'stops 3 of 3 sessions that broke it, 0 of 2 that followed it';
    const playbook = marked(enforcedMarkLine({ 'pre-commit': ['.env'] }, why));
    const changes = renderEnforcement({ playbook, readFile: (p) => files.get(p) });
    assert.deepEqual(changes.map((c) => c.path).sort(), [
      '.combee/hooks/pre-commit.json',
      '.combee/hooks/pre-commit.mjs',
      '.githooks/pre-commit',
    ]);
    const hook = changes.find((c) => c.path === '.githooks/pre-commit');
    assert.equal(hook?.after, '#!/bin/sh\nnpm run lint\nnode .combee/hooks/pre-commit.mjs\n');
    for (const change of changes) {
      mkdirSync(join(repo, dirname(change.path)), { recursive: true });
      writeFileSync(join(repo, change.path), change.after);
    }
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q');
    writeFileSync(join(repo, '.env'), 'TOKEN=x\n');
    writeFileSync(join(repo, 'app.js'), 'x\n');
    git('add', '.env', 'app.js');
    const check = () => spawnSync(process.execPath, ['.combee/hooks/pre-commit.mjs'], { cwd: repo, encoding: 'utf8' });
    const refused = check();
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /\[conv-00004\].*Never commit/);
    git('rm', '-q', '--cached', '.env');
    assert.equal(check().status, 0);

    // a repository without such a hook file gets nothing, and retiring takes the line back out
    assert.deepEqual(renderEnforcement({ playbook, readFile: () => undefined }), []);
    assert.equal(withPreCommitLine(hook?.after ?? '', false), '#!/bin/sh\nnpm run lint\n');
  });

  it('leave out a rule the trust screen holds back', () => {
    const playbook = withEnforcedMark(
      parsePlaybook(`## Setup\n[setu-00001] helpful=0 harmful=0 :: Never \`npm install\`.\n`),
      'setu-00001',
      enforcedMarkLine({ 'claude-code': [['npm', 'install']] }, 'x'),
    );
    assert.ok(renderEnforcement({ playbook, readFile: () => undefined }).length > 0);
    assert.deepEqual(renderEnforcement({ playbook, readFile: () => undefined, held: new Set(['setu-00001']) }), []);
  });
});
