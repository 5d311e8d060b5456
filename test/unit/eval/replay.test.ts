import assert from 'node:assert/strict';
import { replay, sameRule, statesLesson, type LearnedRule } from '../../../src/core/eval/replay';
import { assistant, makeTrace, shell, user } from '../../../testing/traces';

const PREREQ: LearnedRule = {
  id: 'test-00001',
  section: 'Test',
  content:
    "Run `pnpm db:generate` before `pnpm test`: without it `pnpm test` fails with `Error: Cannot find module '.prisma/client/default'`.",
  key: 'prereq:pnpm db:generate=>pnpm test',
};
const PNPM_TESTS: LearnedRule = {
  id: 'test-00002',
  section: 'Test',
  content: 'Run the tests with `pnpm test`, never `yarn test`.',
};
const UNIT_SCRIPT: LearnedRule = { id: 'test-00003', section: 'Test', content: 'Run the tests with `pnpm test:unit`.' };

/** The mistake the prerequisite rule states: the tests fail until the client is generated. */
const missedPrereq = (id: string) =>
  makeTrace(id, [
    user('fix the cart total'),
    ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
    ...shell('pnpm db:generate', 'Generated Prisma Client'),
    ...shell('pnpm test', 'Tests 12 passed'),
  ]);

describe('backtest replay', () => {
  it('prevented: the later session had to learn the very lesson the rule states (same key)', () => {
    const { rules, mistakes } = replay([PREREQ], [missedPrereq('s1')]);
    assert.equal(mistakes.length, 1);
    assert.equal(mistakes[0].kind, 'procedure');
    assert.deepEqual(mistakes[0].preventedBy, ['test-00001']);
    assert.deepEqual(rules[0].prevented, ['s1']);
    assert.equal(rules[0].mistakesPrevented, 1);
  });

  it('prevented: the same lesson without a key is known by the commands it prescribes', () => {
    const { key: _key, ...unkeyed } = PREREQ;
    const reworded = { ...unkeyed, content: 'Always `pnpm db:generate` first, then `pnpm test`.' };
    assert.ok(statesLesson(reworded, { content: PREREQ.content }));
    assert.ok(!statesLesson(reworded, { content: 'Run `pnpm db:generate` before `pnpm build`.' }));
    assert.deepEqual(replay([reworded], [missedPrereq('s1')]).mistakes[0].preventedBy, ['test-00001']);
  });

  it('prevented: the session did otherwise, it failed, and the rule’s way fixed it (evidence "violated")', () => {
    const session = makeTrace('s2', [
      user('run the tests'),
      ...shell('yarn test', 'error Command "test" not found.', 1),
      ...shell('pnpm test', 'Tests 12 passed'),
    ]);
    const { rules, mistakes } = replay([PNPM_TESTS, UNIT_SCRIPT], [session]);
    assert.equal(mistakes.length, 1, JSON.stringify(mistakes));
    assert.deepEqual(mistakes[0].preventedBy, ['test-00002']);
    assert.deepEqual(rules[0].prevented, ['s2']);
    assert.equal(rules[1].untouched, 1, 'the unit-script rule has no bearing here');
  });

  it('misled: following the rule went wrong; agreed: following it worked; untouched: no bearing', () => {
    const failing = makeTrace('s3', [
      user('run the unit tests'),
      ...shell('pnpm test:unit', 'ERR_PNPM_NO_SCRIPT Missing script: test:unit', 1),
      assistant('There is no such script.'),
    ]);
    const passing = makeTrace('s4', [user('run the tests'), ...shell('pnpm test', 'Tests 12 passed')]);
    const unrelated = makeTrace('s5', [user('what is in src?'), ...shell('ls src', 'cart.ts')]);
    const { rules, mistakes } = replay([PNPM_TESTS, UNIT_SCRIPT], [failing, passing, unrelated]);
    assert.deepEqual(mistakes, []);
    const [pnpmTests, unitScript] = rules;
    assert.deepEqual(unitScript.misled, ['s3']);
    assert.deepEqual(unitScript.agreed, []);
    assert.equal(unitScript.untouched, 2);
    assert.deepEqual(pnpmTests.agreed, ['s4']);
    assert.deepEqual(pnpmTests.misled, []);
    assert.equal(pnpmTests.untouched, 2);
  });

  it('prevented, not misled: a rule stating the failure and its fix, which the judge reads as prescribing the failure', () => {
    const docs = makeTrace('s7', [
      user('build the docs'),
      ...shell('uv run mkdocs build --strict', "error: Failed to spawn: 'mkdocs'", 1),
      ...shell('uv run --group docs mkdocs build --strict', 'INFO - Documentation built'),
    ]);
    const fix: LearnedRule = {
      id: 'pitf-00001',
      section: 'Pitfalls',
      content:
        "When `uv run mkdocs build` fails with `error: Failed to spawn: 'mkdocs'`, `uv run --group docs mkdocs build` resolves it.",
    };
    const reverse: LearnedRule = {
      id: 'pitf-00002',
      section: 'Pitfalls',
      content: 'When `uv run --group docs mkdocs build` fails, `uv run mkdocs build` resolves it.',
    };
    const { rules, mistakes } = replay([fix, reverse], [docs]);
    assert.equal(mistakes.length, 1, JSON.stringify(mistakes));
    assert.deepEqual(mistakes[0].preventedBy, ['pitf-00001']);
    assert.deepEqual(rules[0].prevented, ['s7']);
    assert.deepEqual(rules[0].misled, []);
    assert.deepEqual(rules[1].misled, ['s7'], 'the fix the other way round would have sent the agent wrong');
  });

  it('a rule the session "violated" takes no credit for a mistake fixed some other way than the rule’s', () => {
    // read as forbidding every pnpm command (a plain tool name after "don't"), prescribing none
    const generated: LearnedRule = {
      id: 'conv-00001',
      section: 'Conventions',
      content: "Don't edit anything under src/generated/ — it is regenerated by pnpm db:generate.",
    };
    const { rules, mistakes } = replay([generated], [missedPrereq('s8')]);
    assert.deepEqual(mistakes[0].preventedBy, []);
    assert.deepEqual(rules[0].prevented, []);
    assert.equal(rules[0].untouched, 1);
  });

  it('knows the same rule in a proposal by its text, or by its key when the commands agree too', () => {
    const tests = { content: 'Run the tests with `pnpm test`.', key: 'works:test' };
    assert.ok(sameRule(tests, { content: 'Run the tests  with `pnpm test`.' }));
    assert.ok(sameRule(tests, { content: 'Run the test suite with `pnpm test`.', key: 'works:test' }));
    assert.ok(!sameRule(tests, { content: 'Run the tests with `pnpm storybook:test`.', key: 'works:test' }));
    assert.ok(!sameRule(tests, { content: 'Typecheck with `pnpm typecheck`.', key: 'works:typecheck' }));
  });

  it('a mistake no rule covers stays unprevented', () => {
    const corrected = makeTrace('s6', [
      user('add lodash'),
      ...shell('pnpm add lodash', 'done'),
      user('No — we never add lodash. Use the helpers in src/util instead.'),
    ]);
    const { mistakes } = replay([PNPM_TESTS], [corrected]);
    assert.equal(mistakes.length, 1);
    assert.equal(mistakes[0].kind, 'preference');
    assert.deepEqual(mistakes[0].preventedBy, []);
  });

  it('a convention the user states up front in each session is no mistake of the agent, however often restated', () => {
    const restated = ['s8', 's9', 's10'].map((id) =>
      makeTrace(id, [
        user('In this repository we always write commit messages in the imperative mood.'),
        ...shell('git log --oneline -3', 'abc123 Add cart'),
      ]),
    );
    const rule: LearnedRule = {
      id: 'conv-00001',
      section: 'Conventions',
      content: 'In this repository we always write commit messages in the imperative mood.',
    };
    const { mistakes, rules } = replay([rule], restated);
    assert.deepEqual(mistakes, []);
    assert.equal(rules[0].mistakesPrevented, 0);
  });
});
