import assert from 'node:assert/strict';
import {
  commandIn,
  globalAggregationPrompt,
  localAggregationPrompt,
  promptRuleLine,
  rulesForSession,
} from '../../../src/core/llm/prompts';
import { parsePlaybook } from '../../../src/core/playbook/markdown';

const playbookOf = (rules: string[]) =>
  parsePlaybook(
    [
      '# Playbook',
      '',
      '## Rules',
      ...rules.map((r, i) => `[rule-${String(i + 1).padStart(5, '0')}] helpful=0 harmful=0 :: ${r}`),
      '',
    ].join('\n'),
  );
const shownIds = (block: string) => [...block.matchAll(/^\[([a-z]+-\d{5})\]/gm)].map((m) => m[1]);

describe('rules shown to a reflection', () => {
  it('shows a rule whose command the session ran, however long the explanation around it', () => {
    const playbook = playbookOf([
      'The root `pnpm lint` is broken (it lints the generated Prisma client); lint with `pnpm lint:src`.',
      'Build the docs with `uv run --group docs mkdocs build`.',
    ]);
    const session = '#1 TOOL Bash: $ pnpm lint:src\n#2 RESULT ok: 0 problems';
    assert.deepEqual(shownIds(rulesForSession(playbook, session)), ['rule-00001']);
  });

  it('reads a <placeholder> in a rule as what the session wrote there', () => {
    const playbook = playbookOf(['Format a file with `rustfmt src/<file>.rs` after editing it.']);
    assert.deepEqual(shownIds(rulesForSession(playbook, '#4 TOOL Bash: $ rustfmt src/tiles/map.rs')), ['rule-00001']);
    assert.deepEqual(shownIds(rulesForSession(playbook, '#4 TOOL Bash: $ cargo fmt')), []);
  });

  it('does not relate a rule by the words every rule of a large playbook shares', () => {
    // thirty rules about tests in other folders, one about the codegen this session ran
    const playbook = playbookOf([
      ...Array.from(
        { length: 30 },
        (_, i) => `The tests in \`pkg${i}\` need the fixtures regenerated first: run \`make fixtures-${i}\`.`,
      ),
      'Run `cargo xtask codegen` before `cargo test`: the generated code is not committed.',
    ]);
    const session = [
      '#1 USER the tests need the fixtures, they fail first',
      '#2 TOOL Bash: $ cargo xtask codegen',
      '#3 TOOL Bash: $ cargo test',
      '#4 RESULT ok: test result: ok. 12 passed',
    ].join('\n');
    const block = rulesForSession(playbook, session);
    assert.deepEqual(shownIds(block), ['rule-00031']);
    assert.match(block, /30 other rule\(s\) not shown/);
  });

  it('shows a rule the session cites by id first', () => {
    const playbook = playbookOf(['Run `make proto` before `make build`.', 'Never log with `log.Printf`.']);
    const block = rulesForSession(playbook, '#1 AGENT: following [rule-00002], then $ make proto && make build');
    assert.deepEqual(shownIds(block), ['rule-00002', 'rule-00001']);
  });

  it("shows the session's own lessons before the rules that only share their command, when not all fit", () => {
    // forty rules of the same command for other subjects, and the one the user stated in this session
    const playbook = playbookOf([
      ...Array.from(
        { length: 40 },
        (_, i) => `When touching the cart service (case ${i + 10}), run \`pnpm db:generate\` first.`,
      ),
      'When touching the auth middleware (case 42), run `pnpm db:generate` first.',
    ]);
    const session = [
      '#1 USER: Please fix the bug in the auth middleware.',
      '#2 TOOL Bash: $ pnpm vitest run src/auth',
      '#3 USER: Note for the future: when touching the auth middleware (case 42), run `pnpm db:generate` first.',
    ].join('\n');
    assert.equal(shownIds(rulesForSession(playbook, session))[0], 'rule-00041');
  });

  it('says so when no rule is related or the playbook is empty', () => {
    assert.equal(rulesForSession(playbookOf([]), 'anything'), '(empty)');
    assert.equal(
      rulesForSession(playbookOf(['Run `mix deps.get` after `mix.lock` changes.']), '#1 TOOL Bash: $ ls'),
      '(1 rule(s), none related to this session)',
    );
  });
});

describe('commandIn', () => {
  it('finds a command with placeholders only with its parts in order and close together', () => {
    assert.equal(commandIn('$ deno task dev https://example.com/feed.xml', 'deno task dev <feed-url>'), true);
    assert.equal(commandIn('$ bin/importmap pin lodash', 'bin/importmap pin <package>'), true);
    assert.equal(commandIn('$ rustfmt --check', 'rustfmt src/<file>.rs'), false);
    assert.equal(commandIn(`rustfmt src/ ${'x'.repeat(200)} .rs`, 'rustfmt src/<file>.rs'), false);
    assert.equal(commandIn('.rs then rustfmt src/a.rs', 'rustfmt src/<file>.rs'), true);
  });

  it('never counts a command of fewer than three letters', () => {
    assert.equal(commandIn('going nowhere', 'go'), false);
    assert.equal(commandIn('anything', '<x>'), false);
  });

  it('keeps up with a session that repeats the first part thousands of times', () => {
    const text = `${'cargo '.repeat(20000)}cargo test -p core`;
    assert.equal(commandIn(text, 'cargo <args> -p core'), true);
    assert.equal(commandIn(text, 'cargo <args> -p server'), false);
  });
});

describe('a rule as a prompt shows it', () => {
  it('leaves out counters that are both zero and keeps those that say something', () => {
    const [fresh, proven] = [
      ...parsePlaybook(
        '## Rules\n[rule-00001] helpful=0 harmful=0 :: Use pnpm.\n[rule-00002] helpful=3 harmful=1 :: Use uv.\n',
      ).sections[0].lines,
    ].flatMap((line) => (line.kind === 'bullet' ? [line.bullet] : []));
    assert.equal(promptRuleLine(fresh), '[rule-00001] Use pnpm.');
    assert.equal(promptRuleLine(proven), '[rule-00002] helpful=3 harmful=1 :: Use uv.');
  });
});

describe('rules shown to an aggregation', () => {
  // sixty rules of one template, each a different case, and one rule of another subject
  const playbook = playbookOf([
    ...Array.from(
      { length: 60 },
      (_, i) => `When touching the search index (case ${i + 10}), seed with \`pnpm db:seed\` first.`,
    ),
    'Restart `pnpm dev:queue` after changing the email worker.',
  ]);
  const shownIn = (messages: { content: string }[]) => shownIds(messages[1].content.split('\n\nLessons:')[0]);

  it("shows each item's nearest rules, not every rule that shares its template words", () => {
    const items = [
      { label: 'L1', text: 'When touching the search index (case 33), seed with `pnpm db:seed` first.', sessions: 1 },
      { label: 'L2', text: 'Restart `pnpm dev:queue` after changing the email worker.', sessions: 2 },
    ];
    const shown = shownIn(localAggregationPrompt(items, playbook));
    assert.equal(shown[0], 'rule-00024', 'the rule the first item repeats, first');
    assert.ok(shown.includes('rule-00061'), 'the rule the second item repeats');
    assert.ok(shown.length <= 6, `at most three rules an item, got ${shown.length}`);
  });

  it('shows no rule to items close to none', () => {
    const items = [{ label: 'D1.1', text: 'ADD to "Build": Build the docs with `mkdocs build`.', sessions: 1 }];
    assert.deepEqual(shownIn(globalAggregationPrompt(items, playbook)), []);
    assert.match(globalAggregationPrompt(items, playbook)[1].content, /no existing rule is close to these items/);
  });
});
