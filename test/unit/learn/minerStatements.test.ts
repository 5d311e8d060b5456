import assert from 'node:assert/strict';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// What a user's words teach on their own, from one session: a standing instruction whose scope is said outright. The
// team as a subject in passing, or a correction that only re-asks for the work, needs more than one session.

const lessonsOf = (steps: StepInput[]) =>
  mineLessons(makeTrace('t', steps, { cwd: '/home/dev/shop' }), emptyPlaybook()).lessons.filter(
    (l) => l.kind === 'preference',
  );

describe('offline miner: what the user said', () => {
  it('a standing sentence with its scope said outright is a convention of one session', () => {
    const [lesson] = lessonsOf([user('Add the discount field. Never edit anything under src/generated/ by hand.')]);
    assert.match(lesson?.content ?? '', /^Never edit anything under src\/generated\/ by hand/);
    assert.equal(lesson?.minSupport, undefined);
  });

  it('the team as subject, said in passing while asking for work, needs a second session', () => {
    const [lesson] = lessonsOf([user('Move the loader to the new client. We use go-git for that part.')]);
    assert.equal(lesson?.minSupport, 2, JSON.stringify(lesson));
  });

  it('a correction that only re-asks for the work is no convention; one stated generally is', () => {
    const again = lessonsOf([
      user('Tidy the conventions file.'),
      ...shell('git diff --stat', ' CONVENTIONS.md | 4 ++--'),
      user('No, in CONVENTIONS.md reorder the lists.'),
      ...shell('git diff --stat', ' CONVENTIONS.md | 9 +++++----'),
    ]);
    assert.deepEqual(
      again.map((l) => l.content),
      [],
    );
    const general = lessonsOf([
      user('Add lodash to the cart.'),
      ...shell('npm install lodash-es', 'added 1 package'),
      user('No — this repo uses pnpm, never npm. Use pnpm add.'),
      ...shell('pnpm add lodash-es', 'done'),
    ]);
    assert.ok(
      general.some((l) => /never npm/.test(l.content)),
      JSON.stringify(general),
    );
  });

  it('names the way to run a check only when switching to it, with no edit between, made it pass', () => {
    const works = (steps: StepInput[]) =>
      mineLessons(makeTrace('w', steps, { cwd: '/home/dev/shop' }), emptyPlaybook())
        .lessons.filter((l) => l.key === 'works:test')
        .map((l) => l.content);
    const edit: StepInput[] = [
      { kind: 'tool_call', callId: 'e1', tool: 'Edit', input: JSON.stringify({ file_path: 'src/cart.go' }) },
      { kind: 'tool_result', callId: 'e1', output: 'ok', isError: false },
    ];
    assert.deepEqual(
      works([
        ...shell('go test ./...', 'FAIL cart [build failed]', 1),
        ...edit,
        ...shell('make test', 'ok  cart 0.2s'),
      ]),
      [],
    );
    assert.deepEqual(
      works([...shell('go test ./...', 'no Go files in /home/dev/shop', 1), ...shell('make test', 'ok')]),
      ['Run the tests with `make test`.'],
    );
  });
});
