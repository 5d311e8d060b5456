import assert from 'node:assert/strict';
import { classifyTurns, type TurnKind } from '../../../../src/core/trace/turns/classify';
import { dialogue, type Line } from './steps';

const kinds = (lines: Line[]): TurnKind[] => classifyTurns(dialogue(lines)).map((t) => t.kind);

describe('user turns read by their place in the dialogue', () => {
  it('reads an answer to the agent’s question as a reply, whatever its words', () => {
    for (const answer of ['It is ok', 'No and no', 'Non, pas besoin.', 'Нет, не надо.', '不用了']) {
      const [, reply] = kinds([
        { user: 'Make the export faster.' },
        { say: 'I can cache the query or add an index. Which one do you prefer?' },
        { user: answer },
      ]);
      assert.equal(reply, 'reply', answer);
    }
  });

  it('reads a numbered choice offered by the agent as a question', () => {
    const [, reply] = kinds([
      { user: 'Clean up the config loader.' },
      { say: 'Two ways:\n1. drop the legacy keys\n2. keep them behind a flag' },
      { user: '2' },
    ]);
    assert.equal(reply, 'reply');
  });

  it('reads a request for work as a task request, even with "never" in a bug report', () => {
    const turns = classifyTurns(
      dialogue([
        { user: 'The date picker is broken, so I can never change the date. Please fix it.' },
        { run: 'npm test' },
        { say: 'Fixed the picker.' },
        { user: 'Now add a dark mode toggle to the settings page.' },
      ]),
    );
    assert.deepEqual(
      turns.map((t) => t.kind),
      ['task', 'task'],
    );
    assert.deepEqual(turns[0].standing, []);
  });

  it('reads words cutting into the agent’s work, followed by a change of course, as a correction (en, fr, ru, zh)', () => {
    for (const words of [
      'No, this repo uses pnpm, not npm.',
      'Non, on utilise pnpm ici, pas npm.',
      'Нет, используй pnpm вместо npm.',
      '不对，这个项目用 pnpm，不要用 npm。',
    ]) {
      const [, correction] = kinds([
        { user: 'Add the coupon field.' },
        { run: 'npm install' },
        { user: words },
        { run: 'pnpm install' },
      ]);
      assert.equal(correction, 'correction', words);
    }
  });

  it('does not read a refusal as a correction when the agent goes on doing the same', () => {
    const [, turn] = kinds([
      { user: 'Run the suite.' },
      { say: 'Running it.' },
      { run: 'make test', code: 2 },
      { say: 'The suite fails on the parser.' },
      { user: 'Hmm, no luck then.' },
      { run: 'make test' },
    ]);
    assert.notEqual(turn, 'correction');
  });

  it('takes a contentless halt’s content from the user’s next turn', () => {
    const turns = classifyTurns(
      dialogue([
        { user: 'Add the audit log.' },
        { run: 'npm install winston' },
        { user: 'no, wait' },
        { user: 'We log through the internal logger, never add a logging library.' },
        { run: 'git checkout package.json' },
      ]),
    );
    const halt = turns[1];
    assert.equal(halt.kind, 'correction');
    assert.equal(halt.contentIndex, 4);
    assert.match(halt.text, /internal logger/);
  });

  it('uses the reader’s marks: queued is a correction, confirmation never the user’s lesson, undo corrects the edit', () => {
    const turns = classifyTurns(
      dialogue([
        { user: 'Rename the module.' },
        { run: 'git mv a.py b.py' },
        { user: 'use the new name everywhere, including the docs', queued: true },
        { run: 'rg -l old_name' },
        { user: 'y', confirmation: true },
        { user: '/undo', undo: true },
      ]),
    );
    assert.deepEqual(
      turns.map((t) => t.kind),
      ['task', 'correction', 'confirmation', 'correction'],
    );
  });

  it('reads a general statement as a standing instruction (en, fr, ru, zh), and a one-off one as a task', () => {
    const standing = [
      'From now on, always run make lint before committing.',
      'Never edit a migration that was already applied; add a new one instead.',
      'Dorénavant, ne lance jamais les migrations à la main.',
      'Всегда запускай тесты через make test.',
      '以后都用 pnpm 安装依赖。',
    ];
    for (const words of standing) {
      const [, turn] = kinds([{ user: 'Fix the typo in the footer.' }, { say: 'Done.' }, { user: words }]);
      assert.equal(turn, 'standing', words);
    }
    const [, once] = kinds([
      { user: 'Fix the typo in the footer.' },
      { say: 'Done.' },
      { user: 'Use the new helper in this file.' },
    ]);
    assert.equal(once, 'task');
    // how a text reads is no rule, whatever scope words its counterfactual holds
    const [, reading] = kinds([
      { user: 'Write the release notes.' },
      { say: 'Done.' },
      { user: 'The intro reads as if we always start from a clean branch.' },
    ]);
    assert.notEqual(reading, 'standing');
  });

  it('keeps the standing sentence of an opening task request', () => {
    const [opening] = classifyTurns(
      dialogue([
        { user: 'Add a reorder button. Remember: all API calls go through apiFetch, never call fetch directly.' },
      ]),
    );
    assert.equal(opening.kind, 'task');
    assert.deepEqual(opening.standing, ['all API calls go through apiFetch, never call fetch directly.']);
  });
});
