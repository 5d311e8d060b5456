import assert from 'node:assert/strict';
import { aggregateOffline } from '../../../src/core/llm/offline/aggregator';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// A folder's own build step: after editing files under a subfolder, the session built in that folder and it passed.
// A rule once two sessions show it, each having edited there first.

const reflectionOf = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook());
const builds = (steps: StepInput[]) =>
  reflectionOf('t', steps).lessons.filter((l) => l.key?.startsWith('folder-build:'));

let n = 0;
const write = (file: string): StepInput[] => {
  const callId = `w${++n}`;
  return [
    { kind: 'tool_call', callId, tool: 'Write', input: JSON.stringify({ file_path: file, content: 'x' }) },
    { kind: 'tool_result', callId, output: 'ok', isError: false },
  ];
};

const session = (edited: string, build: string, output = 'Done in 210ms.', exit = 0): StepInput[] => [
  user('Make the order badges green.'),
  ...write(edited),
  ...shell(build, output, exit),
];

describe("offline miner: a folder's own build step", () => {
  it('a build run in the folder the session edited under is a procedure asked of two sessions', () => {
    const [lesson, ...rest] = builds(
      session('/home/dev/shop/web/src/badge.css', 'cd /home/dev/shop/web && npm run build:css 2>&1 | tail -3'),
    );
    assert.equal(rest.length, 0);
    assert.equal(
      lesson?.content,
      'After editing files under `web/`, run `npm run build:css` in `web/` (`cd web && npm run build:css`): ' +
        'sessions that changed files there rebuilt with it.',
    );
    assert.equal(lesson?.scope, 'web/');
    assert.equal(lesson?.minSupport, 2);
  });

  it("two sessions, one through a relative cd and one through the call's own folder, support one rule", () => {
    const first = reflectionOf('a', session('web/src/badge.tsx', 'cd web && npm run build:css'));
    const second = reflectionOf('b', [
      user('Restyle the header.'),
      ...write('/home/dev/shop/web/src/header.css'),
      { kind: 'tool_call', callId: 'c1', tool: 'Bash', command: 'npm run build:css', workdir: 'web', input: '{}' },
      { kind: 'tool_result', callId: 'c1', output: 'Done in 190ms.', isError: false },
    ]);
    const { delta } = aggregateOffline(
      { level: 'single', reflections: [first, second], deltas: [] },
      parsePlaybook(''),
    );
    const rules = delta.ops.filter((o) => o.op === 'ADD' && o.key?.startsWith('folder-build:'));
    assert.equal(rules.length, 1);
    assert.deepEqual(
      rules[0].support.map((s) => s.traceId),
      ['a', 'b'],
    );
  });

  it('no edit under the folder, a build at the root, a failing build, a build of one target, or a test: no lesson', () => {
    assert.deepEqual(builds(session('api/src/orders.ts', 'cd web && npm run build:css')), []);
    assert.deepEqual(builds(session('web/src/badge.css', 'npm run build:css')), []);
    assert.deepEqual(builds(session('web/src/badge.css', 'cd web && npm run build:css', 'error: no input', 1)), []);
    assert.deepEqual(builds(session('web/src/badge.css', 'cd web && npm run build:css -- src/badge.css')), []);
    assert.deepEqual(builds(session('web/src/badge.css', 'cd web && npm test')), []);
  });

  it('a build in a folder outside the repository is no rule of it', () => {
    assert.deepEqual(builds(session('/home/dev/other/src/a.css', 'cd /home/dev/other && npm run build:css')), []);
  });
});
