import assert from 'node:assert/strict';
import { echoesTurnGate, wordsOf } from '../../../../../src/core/learn/rules/gates/echoesTurn';
import { repositoryText } from '../../../../../src/core/learn/rules/gates/repository';
import type { GateContext, GatedRule } from '../../../../../src/core/learn/rules/gates/types';
import type { Step, Trace } from '../../../../../src/core/trace/model';
import { dialogue, traceOf, type Line } from '../../../trace/turns/steps';

// Dialogues written for these tests. A lesson made of a user's words is that turn unless the turn states a rule.

const context = (...traces: Trace[]): GateContext => ({
  traces: new Map(traces.map((t) => [t.id, t])),
  repository: repositoryText(() => undefined),
});
const rule = (content: string, ...sessions: string[]): GatedRule => ({
  content,
  support: sessions.map((traceId) => ({ traceId, steps: [0] })),
});
const session = (id: string, lines: Line[]) => traceOf(id, dialogue(lines));
const check = (content: string, ctx: GateContext, ...cited: string[]) =>
  echoesTurnGate.check(rule(content, ...cited), ctx);

describe('the echoes-turn gate', () => {
  it('reads words in order: alphabet words whole, ideographs one by one', () => {
    assert.deepEqual(wordsOf('Run `pnpm test`, then vue的组件'), [
      'run',
      'pnpm',
      'test',
      'then',
      'vue',
      '的',
      '组',
      '件',
    ]);
  });

  it('leaves out a lesson that repeats a task request, in English, French, Russian and Chinese', () => {
    for (const [asked, lesson] of [
      [
        'The export page shows the wrong totals since the last release, please look into it.',
        'The export page shows the wrong totals since the last release.',
      ],
      ['Ajoute une colonne date au tableau des commandes, merci.', 'Ajoute une colonne date au tableau des commandes.'],
      ['Сделай страницу настроек темнее, сейчас слишком ярко.', 'Сделай страницу настроек темнее.'],
      ['帮我把登录页面的按钮颜色改成蓝色，谢谢', '把登录页面的按钮颜色改成蓝色'],
    ]) {
      const ctx = context(session('a', [{ user: asked }, { run: 'npm test' }]));
      assert.match(check(lesson, ctx, 'a') ?? '', /turn 0 of session a, work asked for in one task/, lesson);
    }
  });

  it('leaves out a reply to the agent’s question, and finds the turn in a session the lesson does not cite', () => {
    const asked = session('q', [
      { user: 'Speed up the report export.' },
      { say: 'Should I cache the query results or add a database index?' },
      { user: 'Add the index on the orders table, the cache would go stale.' },
    ]);
    const other = session('o', [{ user: 'Tidy the imports.' }]);
    assert.match(
      check('Add the index on the orders table, the cache would go stale.', context(other, asked), 'o') ?? '',
      /session q, an answer to the agent/,
    );
  });

  it('keeps a task’s words that say when they hold, not the user’s own case', () => {
    const noted = session('n', [
      { user: 'Fix the rounding bug in the invoice totals.' },
      { run: 'pnpm test' },
      { user: 'Note for later: when touching the invoice module, run `pnpm db:generate` first.' },
      { user: 'When I open the invoice page from a bookmark the totals are blank.' },
    ]);
    const ctx = context(noted);
    assert.equal(check('When touching the invoice module, run `pnpm db:generate` first.', ctx, 'n'), undefined);
    assert.match(
      check('When I open the invoice page from a bookmark the totals are blank.', ctx, 'n') ?? '',
      /work asked for in one task/,
    );
  });

  it('keeps an answer to the agent that says how work is done here, not one that only agrees', () => {
    const asked = session('r', [
      { user: 'Set up the test run.' },
      { say: 'Should the e2e tests run locally too?' },
      { user: 'Locally, skip the e2e tests with `pnpm test --project unit`; CI runs them on every push.' },
      { say: 'Is the config fine as it is?' },
      { user: 'It is fine as it is, thanks.' },
    ]);
    const ctx = context(asked);
    assert.equal(
      check('Locally, skip the e2e tests with `pnpm test --project unit`; CI runs them on every push.', ctx, 'r'),
      undefined,
    );
    assert.match(check('It is fine as it is.', ctx, 'r') ?? '', /an answer to the agent/);
  });

  it('keeps a lesson that repeats a correction, a standing instruction, or a standing sentence of a task', () => {
    const corrected = session('c', [
      { user: 'Add the coupon field.' },
      { run: 'npm install' },
      { user: 'No, this repo uses pnpm, not npm.' },
      { run: 'pnpm install' },
    ]);
    assert.equal(check('This repo uses pnpm, not npm.', context(corrected), 'c'), undefined);
    const standing = session('s', [{ user: 'From now on, always run the linter before you commit.' }]);
    assert.equal(check('Always run the linter before you commit.', context(standing), 's'), undefined);
    const mixed = session('m', [
      { user: 'Fix the date picker. Never edit the generated files under src/gen by hand.' },
      { run: 'npm test' },
    ]);
    assert.equal(check('Never edit the generated files under src/gen by hand.', context(mixed), 'm'), undefined);
  });

  it('does not take the first words of a correction for the rule it states', () => {
    const corrected = session('c', [
      { user: 'Tidy the settings file.' },
      { run: 'sed -i s/a/b/ settings.toml' },
      { user: 'No, in the settings file sort the keys, do not rename them.' },
      { run: 'git checkout settings.toml' },
    ]);
    const asked = session('t', [{ user: 'In the settings file\nsort the sections by name.' }]);
    assert.match(check('In the settings file', context(corrected, asked), 't') ?? '', /session t, work asked/);
    assert.equal(
      check('In the settings file sort the keys, do not rename them.', context(corrected, asked), 't'),
      undefined,
    );
  });

  it('leaves out injected context even where the same words come back later as a standing sentence', () => {
    const persona = 'You are the release captain. You must always answer in the voice of the captain.';
    const injected: Step[] = [
      { index: 0, kind: 'user', text: persona, isMeta: true },
      ...dialogue([{ user: 'Cut the release notes.' }]).map((s) => ({ ...s, index: s.index + 1 })),
    ];
    const later = session('l', [{ user: 'Sort the changelog.' }, { say: 'Done.' }, { user: persona }]);
    assert.match(
      check('You must always answer in the voice of the captain.', context(later, traceOf('p', injected)), 'l') ?? '',
      /injected context/,
    );
  });

  it('keeps a paraphrase, a lesson of words no turn holds, and a lesson too short to tell', () => {
    const ctx = context(session('a', [{ user: 'The payment client times out on slow networks, add a retry.' }]));
    assert.equal(check('Retry payment calls that time out, with backoff.', ctx, 'a'), undefined);
    assert.equal(check('Run `make gen` before `make test`.', ctx, 'a'), undefined);
    assert.equal(check('add retry', ctx, 'a'), undefined);
  });
});
