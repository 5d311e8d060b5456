import assert from 'node:assert/strict';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// The fix is what changed: a failing run and the same action passing, and what differs between them.

const mined = (steps: StepInput[], cwd = '/home/dev/shop') =>
  mineLessons(makeTrace('t', steps, { cwd }), emptyPlaybook()).lessons.filter((l) => l.kind !== 'rule');

let call = 0;
/** A shell call the agent ran in its own working folder (Codex's per-call `workdir`). */
function inFolder(command: string, workdir: string, output: string, exitCode = 0): StepInput[] {
  const callId = `w-${++call}`;
  return [
    { kind: 'tool_call', callId, tool: 'shell', command, workdir, input: JSON.stringify({ command, workdir }) },
    { kind: 'tool_result', callId, output, isError: exitCode !== 0, exitCode: exitCode === 0 ? undefined : exitCode },
  ];
}

describe('offline miner: the fix is what changed', () => {
  it('pairs no two different actions: another file read, another subcommand', () => {
    assert.deepEqual(
      mined([
        user('look at the docs'),
        ...shell('cat docs/setup.md', 'cat: docs/setup.md: No such file or directory', 1),
        ...shell('cat docs/install.md', '# Install'),
        ...shell('git rev-parse --short HEAD', 'fatal: not a git repository', 128),
        ...shell('git commit -m "first"', '[main abc123] first'),
      ]),
      [],
    );
  });

  it('a variable added to the same command is the lesson', () => {
    const [lesson] = mined([
      ...shell('make test-integration', 'dial tcp 127.0.0.1:5432: connection refused', 2),
      ...shell('make test-integration DB_PORT=5433', 'ok  integration 3.1s'),
    ]);
    assert.match(lesson?.content ?? '', /^Run `make test-integration DB_PORT=5433`, not `make test-integration`/);
  });

  it('a wrapper taken away is the lesson', () => {
    const [lesson] = mined([
      ...shell('wrap bun run test', "error: unrecognized subcommand 'bun'", 2),
      ...shell('bun run test', '12 pass'),
    ]);
    assert.match(lesson?.content ?? '', /^Run `bun run test`, not `wrap bun run test`/);
  });

  it('another program given the same input, after the first was not found, is the lesson; another script is not', () => {
    const script = "python - <<'PY'\nprint(1)\nPY";
    const [lesson] = mined([
      ...shell(script, 'bash: line 1: python: command not found', 127),
      ...shell(script.replace('python', 'python3'), '1'),
    ]);
    assert.match(lesson?.content ?? '', /^Run `python3`, not `python`: it is not installed here/);
    assert.deepEqual(
      mined([
        ...shell(script, 'bash: line 1: python: command not found', 127),
        ...shell("node - <<'JS'\nconsole.log(1)\nJS", '1'),
      ]),
      [],
    );
  });

  it('the same command passing after a set-up step makes the step a prerequisite; a plain retry teaches nothing', () => {
    assert.deepEqual(
      mined([...shell('pnpm test', 'flaky: socket hang up', 1), ...shell('pnpm test', 'Tests 3 passed')]),
      [],
    );
    const [lesson] = mined([
      ...shell('cargo build', 'error: src/generated/mod.rs not found; run `cargo xtask codegen`', 101),
      ...shell('cargo xtask codegen', 'wrote 12 files'),
      ...shell('cargo build', 'Finished dev'),
    ]);
    assert.match(lesson?.content ?? '', /^Run `cargo xtask codegen` before `cargo build`/);
  });

  it('the command the user names in a correction right after the failure is the fix', () => {
    const [lesson] = mined([
      user('check the feed'),
      ...shell('deno run main.ts feed.xml', 'PermissionDenied: Requires net access', 1),
      user('No, not like that: use deno task dev.'),
      ...shell('deno task dev feed.xml', '2 links broken'),
    ]);
    assert.match(lesson?.content ?? '', /^Run `deno task dev`, not `deno run main\.ts`/);
  });
});

describe('offline miner: working folder and workspace paths', () => {
  it('a command failing at the root and passing in a subfolder teaches where to run it', () => {
    const [lesson] = mined([
      ...inFolder('npm test', '/home/dev/shop', 'npm ERR! enoent Could not read package.json', 254),
      ...inFolder('npm test', '/home/dev/shop/web', 'Tests: 4 passed'),
    ]);
    assert.equal(lesson?.key, 'workdir:npm run test@web');
    assert.match(lesson?.content ?? '', /^Run `npm test` in `web\/`: from the repository root it fails/);
    // the same through `cd` on the line
    const [viaCd] = mined([
      ...shell('npm test', 'npm ERR! enoent Could not read package.json', 254),
      ...shell('cd web && npm test', 'Tests: 4 passed'),
    ]);
    assert.equal(viaCd?.key, 'workdir:npm run test@web');
  });

  it('never carries the workspace path, and proposes nothing for a path outside it', () => {
    const lessons = mined([
      ...shell('cd ~/shop && pnpm vitest run src/a.test.ts', 'Expected 00:00, received 23:00', 1),
      ...shell('cd ~/shop && TZ=UTC pnpm vitest run src/a.test.ts', 'Tests 2 passed'),
      ...shell('cat /tmp/build/out.log', 'cat: /tmp/build/out.log: No such file or directory', 1),
      ...shell('cat /tmp/build/out.log 2>/dev/null || true', ''),
    ]);
    assert.deepEqual(
      lessons.map((l) => l.content),
      [
        'Run `TZ=UTC pnpm vitest run`, not `pnpm vitest run`: the plain form fails with `Expected 00:00, received 23:00`.',
      ],
    );
  });
});
