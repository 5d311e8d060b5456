import assert from 'node:assert/strict';
import { aggregateOffline } from '../../../src/core/llm/offline/aggregator';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// A failure repaired by removing what it names: the commit's hook ran the tests, they failed on files left in a
// scratch folder, the agent removed them and the same commit passed with no edit between.

const reflectionOf = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook());
const removals = (id: string, steps: StepInput[]) =>
  reflectionOf(id, steps).lessons.filter((l) => l.key?.startsWith('removed:'));

const hookFailure = (leftover: string) =>
  `$ vitest run\n FAIL ${leftover}/test/cart.test.ts\n 3 failed\nhusky - pre-commit script failed (code 1)`;
const commit = 'git commit -m "Add cart totals"';
const edit: StepInput[] = [
  { kind: 'tool_call', callId: 'w1', tool: 'Write', input: JSON.stringify({ file_path: 'src/cart.ts', content: 'x' }) },
  { kind: 'tool_result', callId: 'w1', output: 'ok', isError: false },
];

const session = (remove: string, between: StepInput[] = []): StepInput[] => [
  user('commit'),
  ...shell(commit, hookFailure('tmp/runs/run-a1'), 1),
  ...shell('ls tmp/runs', 'run-a1/\n'),
  ...between,
  ...shell(remove, ''),
  ...shell(commit, '[main 1a2b3c4] Add cart totals'),
];

describe('offline miner: a failure repaired by removing what it names', () => {
  it('a commit refused on files under a folder, passing once they are removed, names the folder to clear', () => {
    const [lesson] = removals('a', session('rm -rf /home/dev/shop/tmp/runs/run-a1'));
    assert.equal(
      lesson?.content,
      'When `git commit` fails on files under `tmp/runs/`, remove what is there (`rm -rf tmp/runs/…`) and run it ' +
        'again: those files, not the change, made it fail.',
    );
    assert.equal(lesson?.minSupport, 2);
  });

  it('two sessions removing the leftover or the whole folder support one rule', () => {
    const first = reflectionOf('a', session('rm -rf /home/dev/shop/tmp/runs/run-a1'));
    const second = reflectionOf('b', session('rm -rf tmp/runs/'));
    const { delta } = aggregateOffline(
      { level: 'single', reflections: [first, second], deltas: [] },
      parsePlaybook(''),
    );
    const rules = delta.ops.filter((o) => o.op === 'ADD' && o.key?.startsWith('removed:'));
    assert.equal(rules.length, 1);
    assert.deepEqual(
      rules[0].support.map((s) => s.traceId),
      ['a', 'b'],
    );
  });

  it('an edit between, a removal the failure does not name, one outside the workspace, or no removal: no lesson', () => {
    assert.deepEqual(removals('a', session('rm -rf tmp/runs/run-a1', edit)), []);
    assert.deepEqual(removals('a', session('rm -rf tmp/cache')), []);
    assert.deepEqual(removals('a', session('rm -rf /tmp/runs/run-a1')), []);
    assert.deepEqual(removals('a', session('ls tmp')), []);
  });
});
