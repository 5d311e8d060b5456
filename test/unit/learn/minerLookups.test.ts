import assert from 'node:assert/strict';
import { aggregateOffline } from '../../../src/core/llm/offline/aggregator';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { parsePlaybook } from '../../../src/core/playbook/markdown';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// What an agent looked for and where it was: a file read at a wrong path then found under the same name, a tool asked
// for something that is not there, a check repaired by the project's own fixing script, and the check commands a
// session shows an agent getting wrong.

const lessonsOf = (steps: StepInput[], cwd = '/home/dev/shop') =>
  mineLessons(makeTrace('t', steps, { cwd }), emptyPlaybook()).lessons;

let call = 0;
function toolCall(tool: string, input: object, output: string, isError: boolean): StepInput[] {
  const callId = `tool-${++call}`;
  return [
    { kind: 'tool_call', callId, tool, input: JSON.stringify(input) },
    { kind: 'tool_result', callId, output, isError },
  ];
}

describe('offline miner: what agents looked for', () => {
  it('a file read at a wrong path, then read under the same name elsewhere, is where the file is (asked of two sessions)', () => {
    const [lesson] = lessonsOf([
      user('Run the release checklist.'),
      ...shell('cat ~/shop/docs/release/checklist.md', 'cat: docs/release/checklist.md: No such file or directory', 1),
      ...shell('ls ~/shop/docs', 'process\n'),
      ...shell('cat ~/shop/docs/process/release/checklist.md', '# Checklist'),
    ]).filter((l) => l.key?.startsWith('path:'));
    assert.equal(
      lesson?.content,
      '`docs/process/release/checklist.md` is the file to read: `docs/release/checklist.md` does not exist.',
    );
    assert.equal(lesson?.minSupport, 2);
  });

  it('the name less a prefix is the same file; another name, or a read after an edit, is not', () => {
    const found = lessonsOf([
      ...shell("sed -n '1,80p' tasks/shop-help.md", "sed: can't read tasks/shop-help.md: No such file or directory", 2),
      ...shell("sed -n '1,80p' tasks/help.md", '# Help'),
    ]).filter((l) => l.key?.startsWith('path:'));
    assert.match(
      found[0]?.content ?? '',
      /^`tasks\/help\.md` is the file to read: `tasks\/shop-help\.md` does not exist/,
    );
    const other = lessonsOf([
      ...shell('cat docs/setup.md', 'cat: docs/setup.md: No such file or directory', 1),
      ...shell('cat docs/install.md', '# Install'),
      ...shell('cat notes/todo.md', 'cat: notes/todo.md: No such file or directory', 1),
      {
        kind: 'tool_call',
        callId: 'e1',
        tool: 'Write',
        input: JSON.stringify({ file_path: 'notes/todo.md', content: 'x' }),
      },
      { kind: 'tool_result', callId: 'e1', output: 'ok', isError: false },
      ...shell('cat notes/todo.md', 'x'),
    ]).filter((l) => l.key?.startsWith('path:'));
    assert.deepEqual(other, []);
  });

  it('a tool asked for a name its error says is unknown is a lesson; an error that names nothing of the call is not', () => {
    const lessons = lessonsOf([
      user('commit'),
      ...toolCall('Skill', { skill: 'commit' }, '<tool_use_error>Unknown skill: commit</tool_use_error>', true),
      ...toolCall('Read', { file_path: 'src/a.ts' }, 'File has been modified since read', true),
    ]).filter((l) => l.key?.startsWith('tool:'));
    assert.deepEqual(
      lessons.map((l) => [l.content, l.minSupport]),
      [['There is no `commit` for the `Skill` tool here: asking for it fails with `Unknown skill: commit`.', 2]],
    );
  });

  it("a check that passes after the project's fixing script ran is repaired by it", () => {
    const lessons = lessonsOf([
      ...shell('bun run lint', 'Formatter would have printed the following content:', 1),
      ...shell('bun run lint:fix', 'Fixed 3 files'),
      ...shell('bun run lint', 'Checked 120 files'),
    ]).filter((l) => l.key?.startsWith('autofix:'));
    assert.deepEqual(
      lessons.map((l) => l.content),
      ['When `bun run lint` fails, run `bun run lint:fix`, then `bun run lint` again.'],
    );
  });

  it('a commit refused by a hook and passing after a fixer ran is not a repaired check', () => {
    const lessons = lessonsOf([
      ...shell('git commit -am "cart"', 'ruff failed', 1),
      ...shell('uv run ruff check --fix', 'Found 2 errors (2 fixed)'),
      ...shell('git commit -am "cart"', '[main 1a2b3c] cart'),
    ]).filter((l) => l.key?.startsWith('autofix:'));
    assert.deepEqual(lessons, []);
  });

  it('names the way to run a check only where the session shows another way failing', () => {
    const rules = (steps: StepInput[]) =>
      lessonsOf(steps)
        .filter((l) => l.key === 'works:test')
        .map((l) => l.content);
    assert.deepEqual(rules([...shell('pnpm test', 'Tests 12 passed')]), []);
    assert.deepEqual(
      rules([...shell('pnpm test', 'FAIL src/cart.test.ts', 1), ...shell('pnpm test', 'Tests 12 passed')]),
      [],
    );
    assert.deepEqual(
      rules([
        ...shell('pnpm tests', 'ERR_PNPM_NO_SCRIPT  Missing script: tests', 1),
        ...shell('pnpm test', 'Tests 12 passed'),
      ]),
      ['Run the tests with `pnpm test`.'],
    );
    // a wrong way a fix lesson already pairs ("Run `pnpm test`, not `npm test`") names no check beside it
    assert.deepEqual(
      rules([
        ...shell('npm test', 'npm ERR! Unsupported protocol "workspace:"', 1),
        ...shell('pnpm test', 'Tests 12 passed'),
      ]),
      [],
    );
  });

  it('a call the client never ran is neither a failure nor a pass', () => {
    const lessons = lessonsOf([
      { kind: 'tool_call', callId: 'n1', tool: 'Bash', command: 'wrap bun run lint', input: '{}' },
      { kind: 'tool_result', callId: 'n1', output: 'Sibling tool call errored', isError: true, notRun: true },
      ...shell('bun run lint', 'Checked 120 files'),
    ]);
    assert.deepEqual(
      lessons.filter((l) => l.kind !== 'rule'),
      [],
    );
  });
});

describe('offline aggregator: one key, every session', () => {
  it("a lesson the miner keys as one keeps every session's support, whatever each wording quotes", () => {
    const reflection = (traceId: string, error: string, key?: string) => ({
      traceId,
      lessons: [
        {
          section: 'Pitfalls',
          kind: 'pitfall' as const,
          ...(key ? { key } : {}),
          content: `When \`bun run lint\` fails with \`${error}\`, \`bun run lint:fix\` resolves it.`,
          evidence: { traceId, steps: [1, 2] },
        },
      ],
      tags: [],
    });
    const keyed = aggregateOffline(
      {
        level: 'single',
        reflections: [reflection('a', 'import order', 'autofix:lint'), reflection('b', 'formatter', 'autofix:lint')],
        deltas: [],
      },
      parsePlaybook(''),
    );
    const [op] = keyed.delta.ops.filter((o) => o.op === 'ADD');
    assert.deepEqual(
      op?.support.map((s) => s.traceId),
      ['a', 'b'],
    );
  });
});
