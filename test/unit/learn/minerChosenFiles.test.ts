import assert from 'node:assert/strict';
import { aggregateOffline } from '../../../src/core/llm/offline/aggregator';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { assistant, makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// A file the user chose when asked: the agent listed files alike and asked which to use; the user's answer names one.
// Read by the paths, in any language; a rule once two sessions choose the same file.

const reflectionOf = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook());
const chosen = (steps: StepInput[]) => reflectionOf('t', steps).lessons.filter((l) => l.key?.startsWith('chosen:'));

const found = (...files: string[]) =>
  `I found these specifications:\n${files.map((f) => `- \`${f}\``).join('\n')}\n\nWhich one should I work from?`;

const session = (reply: string, listing = found('docs/specs/spec.md', 'docs/old/payments-spec.md')): StepInput[] => [
  user('Draft the release plan from the specification.'),
  ...shell('rg --files docs', 'docs/specs/spec.md\ndocs/old/payments-spec.md\n'),
  assistant(listing),
  user(reply),
];

describe('offline miner: a file the user chose when asked', () => {
  it('an answer naming one of the files alike the agent listed is the file to use, asked of two sessions', () => {
    const [lesson, ...rest] = chosen(session('Nimm docs/specs/spec.md, die anderen nicht.'));
    assert.equal(rest.length, 0);
    assert.equal(
      lesson?.content,
      'Use `docs/specs/spec.md`, not `docs/old/payments-spec.md`: asked which of these files to use, the user chose it.',
    );
    assert.equal(lesson?.key, 'chosen:docs/specs/spec.md');
    assert.equal(lesson?.minSupport, 2);
  });

  it('two sessions choosing the same file, one by its name only, support one rule', () => {
    const first = reflectionOf('a', session('docs/specs/spec.md please'));
    const second = reflectionOf(
      'b',
      session('le spec.md', found('docs/specs/spec.md', 'docs/specs/spec-review.md', 'docs/plan.md')),
    );
    const { delta } = aggregateOffline(
      { level: 'single', reflections: [first, second], deltas: [] },
      parsePlaybook(''),
    );
    const rules = delta.ops.filter((o) => o.op === 'ADD' && o.key?.startsWith('chosen:'));
    assert.equal(rules.length, 1);
    assert.deepEqual(
      rules[0].support.map((s) => s.traceId),
      ['a', 'b'],
    );
  });

  it('a listed path with a stray leading slash is the repository path the commands name', () => {
    const [lesson] = chosen(session('spec.md', found('/docs/specs/spec.md', '/docs/old/payments-spec.md')));
    assert.equal(lesson?.key, 'chosen:docs/specs/spec.md');
  });

  it('no question, no file alike, a name matching two files, or a file outside the repository: no lesson', () => {
    const told =
      'I found these specifications:\n- `docs/specs/spec.md`\n- `docs/old/payments-spec.md`\n\nStarting now.';
    assert.deepEqual(chosen(session('docs/specs/spec.md', told)), []);
    assert.deepEqual(chosen(session('docs/specs/spec.md', found('docs/specs/spec.md', 'docs/plan.md'))), []);
    assert.deepEqual(chosen(session('spec.md', found('docs/specs/spec.md', 'docs/old/spec.md'))), []);
    assert.deepEqual(
      chosen(session('/home/dev/notes/spec.md', found('/home/dev/notes/spec.md', '/home/dev/notes/spec-old.md'))),
      [],
    );
  });

  it('a path the user names that the agent did not list is no choice among them', () => {
    assert.deepEqual(chosen(session('Use docs/new/spec.md instead.')), []);
  });
});
