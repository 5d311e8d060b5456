import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_SCRIPT } from '../../../src/core/assets/enforce/hookScript';
import { forbiddenMatchers, stops, type CommandMatcher } from '../../../src/core/assets/enforce/matcher';
import { tempDir } from '../../../testing/tmp';

// The enforcement matcher on compound, wrapped, heredoc, quoted, flagged and unflagged commands: it stops exactly the
// forbidden form, never a wider one, and the shipped hook stops exactly what the core stops.

const NPM_INSTALL = 'Never run `npm install`.';
const UALL = 'Never run `git status` with `-uall`.';
const NO_VERIFY = 'Never `git commit -m wip --no-verify`.';
const LEASE = 'Never `git push` without `--force-with-lease`.';
const MAKE = 'Never run `make gen-001` here.';
const CARGO = 'Never `cargo run --bin worker`.';

const CASES: Array<[rule: string, command: string, stopped: boolean]> = [
  [NPM_INSTALL, 'npm install', true],
  [NPM_INSTALL, 'npm install lodash', true],
  [NPM_INSTALL, 'npm i -D vitest', true],
  [NPM_INSTALL, 'npm add zod', true],
  [NPM_INSTALL, 'cd web && npm install', true],
  [NPM_INSTALL, 'sudo -u dev npm install -g typescript', true],
  [NPM_INSTALL, 'env CI=1 npm install', true],
  [NPM_INSTALL, 'NODE_ENV=test npm install', true],
  [NPM_INSTALL, 'timeout 60 npm install', true],
  [NPM_INSTALL, 'time nice -n 5 npm ci && npm install', true],
  [NPM_INSTALL, '/usr/local/bin/npm install', true],
  [NPM_INSTALL, 'git pull; npm install || true', true],
  [NPM_INSTALL, 'x=$(npm install)', true],
  [NPM_INSTALL, 'echo "$(npm install)"', true],
  [NPM_INSTALL, '(cd api && npm install)', true],
  [NPM_INSTALL, 'npm --prefix web install', true],
  [NPM_INSTALL, 'npm ci', false],
  [NPM_INSTALL, 'npm view react version', false],
  [NPM_INSTALL, 'pnpm install', false],
  [NPM_INSTALL, 'echo npm install', false],
  [NPM_INSTALL, 'echo "npm install"', false],
  [NPM_INSTALL, "git commit -m 'do not npm install here'", false],
  [NPM_INSTALL, 'cat <<EOF > notes.md\nnpm install\nEOF', false],
  [NPM_INSTALL, "cat <<'EOF'\nrun npm install first\nEOF\necho done", false],
  [NPM_INSTALL, 'grep -r "npm install" docs', false],
  [NPM_INSTALL, 'npx npm-install', false],
  [NPM_INSTALL, 'npm run install-deps', false],
  [NPM_INSTALL, '# npm install', false],
  [UALL, 'git status', false],
  [UALL, 'git status --short', false],
  [UALL, 'git status -uall', true],
  [UALL, 'git status --untracked-files=all', true],
  [UALL, 'git -C repo status -uall', true],
  [UALL, 'cd repo && git status -uno', false],
  [UALL, 'git log -uall', false],
  [NO_VERIFY, 'git commit -m "fix the cart total"', false],
  [NO_VERIFY, 'git commit -m wip', false],
  [NO_VERIFY, 'git commit --no-verify -m "fix"', false],
  [NO_VERIFY, 'git commit -m wip --no-verify', true],
  [NO_VERIFY, 'git commit --no-verify -m wip', true],
  [NO_VERIFY, 'git commit -n -m wip', true],
  [NO_VERIFY, 'git add -A && git commit -m wip --no-verify', true],
  [NO_VERIFY, 'git commit -m "$(cat <<\'EOF\'\nwip\nEOF\n)"', false],
  [LEASE, 'git push', true],
  [LEASE, 'git push origin main', true],
  [LEASE, 'git push -f', true],
  [LEASE, 'git push --force-with-lease', false],
  [LEASE, 'git push --force-with-lease origin feature', false],
  [LEASE, 'git fetch && git push --force-with-lease', false],
  [LEASE, 'git pull', false],
  [LEASE, 'echo git push', false],
  [MAKE, 'make gen-001', true],
  [MAKE, 'make -C services/a gen-001', true],
  [MAKE, 'make test-001', false],
  [MAKE, 'make gen-002', false],
  [MAKE, 'make', false],
  [CARGO, 'cargo run --bin worker', true],
  [CARGO, 'cargo run --bin=worker --release', true],
  [CARGO, 'cargo run --bin api', false],
  [CARGO, 'cargo run', false],
  [CARGO, 'cargo test', false],
];

const matchersOf = (rule: string): CommandMatcher[] => forbiddenMatchers(rule);

describe('the enforcement matcher on sixty commands', () => {
  it('reads each rule as its forbidden form, flag conditions included', () => {
    assert.deepEqual(matchersOf(NPM_INSTALL), [['npm', 'install']]);
    assert.deepEqual(matchersOf(UALL), [['git', 'status', '-uall']]);
    assert.deepEqual(matchersOf(NO_VERIFY), [['git', 'commit', '-m', 'wip', '--no-verify']]);
    assert.deepEqual(matchersOf(LEASE), [['git', 'push', '!--force-with-lease']]);
    assert.deepEqual(matchersOf(MAKE), [['make', 'gen-001']]);
    assert.deepEqual(matchersOf(CARGO), [['cargo', 'run', '--bin', 'worker']]);
  });

  it('stops exactly the forbidden form', () => {
    assert.ok(CASES.length >= 60);
    for (const [rule, command, stopped] of CASES) {
      const matchers = matchersOf(rule);
      assert.equal(
        matchers.some((m) => stops(command, m)),
        stopped,
        `${rule} on ${JSON.stringify(command)}`,
      );
    }
  });

  it('stops in the shipped hook exactly what it stops in the core', function () {
    // one node process per command, on a machine that may be busy
    this.timeout(300_000);
    const dir = join(tempDir('combee-hook-cases-'), '.claude', 'hooks');
    mkdirSync(dir, { recursive: true });
    const script = join(dir, 'combee-enforce.mjs');
    writeFileSync(script, HOOK_SCRIPT);
    for (const rule of [NPM_INSTALL, UALL, NO_VERIFY, LEASE, MAKE, CARGO]) {
      writeFileSync(
        join(dir, 'combee-enforce.json'),
        JSON.stringify({ version: 1, rules: [{ id: 'setu-00001', text: rule, commands: matchersOf(rule) }] }),
      );
      for (const [caseRule, command, stopped] of CASES) {
        if (caseRule !== rule) continue;
        const run = spawnSync(process.execPath, [script], {
          input: JSON.stringify({ tool_name: 'Bash', tool_input: { command } }),
          encoding: 'utf8',
        });
        assert.equal(run.status, stopped ? 2 : 0, `hook: ${rule} on ${JSON.stringify(command)} ${run.stderr}`);
      }
    }
  });
});
