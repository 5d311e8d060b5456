import assert from 'node:assert/strict';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// The check that catches the agent's own mistakes: failing after the agent's edits, passing once it edited again.

let n = 0;
const edit = (file: string): StepInput => ({
  kind: 'tool_call',
  callId: `e-${++n}`,
  tool: 'Edit',
  input: JSON.stringify({ file_path: `/home/dev/shop/${file}`, old_string: 'a', new_string: 'b' }),
});
const verifyOf = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook()).lessons.filter((l) =>
    l.key?.startsWith('verify:'),
  );

const caughtSession = (): StepInput[] => [
  user('add a discount field to the cart'),
  edit('src/cart.ts'),
  ...shell('pnpm test 2>&1 | tail -5', 'Tests 40 passed'),
  ...shell('pnpm lint', 'src/cart.ts:3:7  error  no-unused-vars', 1),
  edit('src/cart.ts'),
  ...shell('pnpm lint', ''),
  ...shell('pnpm typecheck', ''),
];

describe('offline miner: the check that caught the agent’s own edits', () => {
  it('names the checks the session verified with, once the lint failed on an edit and passed after another', () => {
    const [lesson] = verifyOf('a', caughtSession());
    assert.equal(
      lesson?.content,
      'After editing, run `pnpm lint`, `pnpm typecheck` and `pnpm test` and fix what they report before finishing: ' +
        "`pnpm lint` failed on the agent's own edits and passed once they were fixed.",
    );
    assert.equal(lesson?.minSupport, 2);
    // another session whose other check caught it is the same lesson
    const [other] = verifyOf('b', [
      edit('src/a.ts'),
      ...shell('pnpm test', 'FAIL a.test.ts', 1),
      edit('src/a.ts'),
      ...shell('pnpm test', 'ok'),
    ]);
    assert.equal(other?.key, lesson?.key);
  });

  it('learns nothing from checks that only passed, failed before any edit, or passed with no edit between', () => {
    assert.deepEqual(verifyOf('a', [edit('src/a.ts'), ...shell('pnpm lint', ''), ...shell('pnpm test', 'ok')]), []);
    assert.deepEqual(
      verifyOf('b', [...shell('pnpm test', 'FAIL a.test.ts', 1), edit('src/a.ts'), ...shell('pnpm test', 'ok')]),
      [],
    );
    // a flaky run passing again on its own, or a fixing script, is not the agent's mistake caught
    assert.deepEqual(
      verifyOf('c', [edit('src/a.ts'), ...shell('pnpm test', 'FAIL a.test.ts', 1), ...shell('pnpm test', 'ok')]),
      [],
    );
  });

  it('counts neither one test run by name nor a check run in a subfolder', () => {
    assert.deepEqual(
      verifyOf('a', [
        edit('src/a.ts'),
        ...shell('pnpm vitest run src/a.test.ts', 'FAIL', 1),
        edit('src/a.ts'),
        ...shell('pnpm vitest run src/a.test.ts', 'ok'),
        ...shell('cd web && pnpm lint', 'error', 1),
        edit('web/b.ts'),
        ...shell('cd web && pnpm lint', ''),
      ]),
      [],
    );
  });
});
