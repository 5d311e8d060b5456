import assert from 'node:assert/strict';
import { aggregateOffline } from '../../../src/core/llm/offline/aggregator';
import { mineLessons } from '../../../src/core/llm/offline/miner';
import { renamedFolder } from '../../../src/core/llm/offline/missingPaths';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { makeTrace, shell, user } from '../../../testing/traces';

type StepInput = Parameters<typeof makeTrace>[1][number];

// A file looked for under a wrong folder and read under the right one: when only a folder differs, the folder is the
// lesson, and two sessions missing different files under it support one rule.

const reflectionOf = (id: string, steps: StepInput[]) =>
  mineLessons(makeTrace(id, steps, { cwd: '/home/dev/shop' }), emptyPlaybook());

const missed = (wrong: string, right: string): StepInput[] => [
  user('Load the guide and follow it.'),
  ...shell(`cat ~/shop/${wrong}`, `cat: ~/shop/${wrong}: No such file or directory`, 1),
  ...shell("rg --files -g '*.md'", `${right}\n`),
  ...shell(`cat ~/shop/${right}`, '# Guide'),
];

describe('offline miner: a folder guessed wrong', () => {
  it('names the folder when only a folder differs, and the file otherwise', () => {
    assert.equal(
      renamedFolder('kit/guides/setup.md', '_kit/guides/setup.md')?.content,
      'Look in `_kit/`, not `kit/`: `kit/guides/setup.md` does not exist, `_kit/guides/setup.md` does.',
    );
    assert.equal(
      renamedFolder('docs/flows/deploy/steps/one.md', 'docs/flows/ship-deploy/steps/one.md')?.content,
      'In `docs/flows/`, look in `ship-deploy/`, not `deploy/`: `deploy/steps/one.md` does not exist, ' +
        '`ship-deploy/steps/one.md` does.',
    );
    // a folder added or left out, another file name, or the file name alone alike: not a folder guessed wrong
    assert.equal(renamedFolder('docs/one.md', 'docs/steps/one.md'), undefined);
    assert.equal(renamedFolder('docs/steps/one.md', 'docs/one.md'), undefined);
    assert.equal(renamedFolder('tasks/shop-help.md', 'tasks/help.md'), undefined);
    assert.equal(renamedFolder('src/a/index.ts', 'src/b/index.ts'), undefined);
  });

  it('two sessions missing different files under one wrong folder make one rule; a mention mark is the same guess', () => {
    const first = reflectionOf('a', missed('kit/guides/setup.md', '_kit/guides/setup.md'));
    const second = reflectionOf('b', missed('@kit/tasks/release/run.md', '_kit/tasks/release/run.md'));
    const folderLessons = [first, second].flatMap((r) => r.lessons.filter((l) => l.key?.startsWith('folder:')));
    assert.equal(folderLessons.length, 2);
    assert.ok(folderLessons.every((l) => l.minSupport === 2 && l.key === 'folder:kit/=>_kit/'));
    // the file-level lesson is not said beside it
    assert.ok([first, second].every((r) => !r.lessons.some((l) => l.key?.startsWith('path:'))));
    const { delta } = aggregateOffline(
      { level: 'single', reflections: [first, second], deltas: [] },
      parsePlaybook(''),
    );
    const rules = delta.ops.filter((o) => o.op === 'ADD' && o.key?.startsWith('folder:'));
    assert.equal(rules.length, 1);
    assert.deepEqual(
      rules[0].support.map((s) => s.traceId),
      ['a', 'b'],
    );
    assert.match(rules[0].op === 'ADD' ? rules[0].content : '', /^Look in `_kit\/`, not `kit\/`/);
  });

  it('different wrong folders are different rules', () => {
    const one = reflectionOf('a', missed('kit/guides/setup.md', '_kit/guides/setup.md'));
    const other = reflectionOf('b', missed('docs/flows/deploy/steps/one.md', 'docs/flows/ship-deploy/steps/one.md'));
    const { delta } = aggregateOffline({ level: 'single', reflections: [one, other], deltas: [] }, parsePlaybook(''));
    const rules = delta.ops.filter((o) => o.op === 'ADD' && o.key?.startsWith('folder:'));
    assert.deepEqual(
      rules.map((r) => r.support.length),
      [1, 1],
    );
  });
});
