import assert from 'node:assert/strict';
import type { BacktestReport } from '../../../src/core/eval/backtest';
import { backtestMarkdown, markdownWithCode, NOT_PROPOSED } from '../../../src/core/eval/render';
import type { RuleReplay } from '../../../src/core/eval/replay';

const rule = (id: string, content: string, prevented: string[] = []): RuleReplay => ({
  id,
  section: 'test',
  content,
  prevented,
  misled: [],
  agreed: [],
  untouched: 0,
  mistakesPrevented: prevented.length,
});

const report = (rules: RuleReplay[]): BacktestReport => ({
  version: 1,
  workspace: '/w',
  provider: 'offline',
  model: 'combee-offline-miner',
  seed: 7,
  split: { ratio: 0.5 },
  earlier: { sessions: 2 },
  later: { sessions: 2 },
  undated: 0,
  playbook: { path: '.combee/playbook.md', source: { kind: 'none' } },
  learnStatus: 'completed',
  rules,
  mistakes: [
    {
      sessionId: 'claude-code:later-1',
      kind: 'pitfall',
      lesson: 'Run `pnpm db:generate` before `pnpm test`.',
      steps: [3],
      preventedBy: rules.map((r) => r.id),
    },
  ],
  totals: { mistakes: 1, prevented: 1, misleadingRules: 0, misledSessions: 0, preventingRules: 1 },
  summary: 'would have prevented 1 of 1 mistake in the later sessions; 0 rules would have misled 0 sessions',
  warnings: [],
});

const tableRows = (page: string, header: string) => {
  const lines = page.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  return lines.slice(start + 2, lines.indexOf('', start));
};

describe('the backtest page in the reader’s terms', () => {
  it('shows a code span as code and the rest literally', () => {
    assert.equal(markdownWithCode('Run `pnpm test` *now*'), 'Run `pnpm test` \\*now\\*');
    // what a span holds is never markup; a pipe in it does not end the table cell
    assert.equal(markdownWithCode('`a | b` and <b>'), '`a \\| b` and \\<b\\>');
    // a span holding backticks is fenced by more of them; a lone backtick stays text
    assert.equal(markdownWithCode('``x ` y`` it`s'), '``x ` y`` it\\`s');
    assert.equal(markdownWithCode('two\nlines `x`'), 'two lines `x`');
  });

  it('names the rules by the ids the reader reviews them under, and says which it does not hold', () => {
    const rules = [
      rule('test-00007', 'Run `pnpm db:generate` first.', ['claude-code:later-1']),
      rule('conv-00008', 'Use pnpm.'),
    ];
    const page = backtestMarkdown(report(rules), {
      ruleId: (r) => (r.id === 'test-00007' ? 'test-00001' : undefined),
      sessionTitle: (id) => (id === 'claude-code:later-1' ? 'Fix the `cart` total' : undefined),
    });
    const ruleRows = tableRows(page, '| Rule |');
    assert.deepEqual(
      ruleRows.map((r) => r.split(' | ')[0]),
      ['| test\\-00001', `| *${NOT_PROPOSED}*`],
    );
    assert.ok(!page.includes('00007') && !page.includes('00008'), 'the backtest’s own ids are not shown');
    assert.ok(ruleRows[0].endsWith('| Run `pnpm db:generate` first\\. |'), ruleRows[0]);
    const [mistake] = tableRows(page, '| Session |');
    assert.equal(
      mistake,
      `| Fix the \`cart\` total | pitfall | test\\-00001, *${NOT_PROPOSED}* | Run \`pnpm db:generate\` before \`pnpm test\`\\. |`,
    );
    assert.ok(!page.includes('later-1') && !page.includes('later\\-1'), 'no raw session id');
  });

  it('falls back to the backtest’s own ids and the session id when it is given no names', () => {
    const page = backtestMarkdown(report([rule('test-00007', 'Run it.')]));
    assert.ok(page.includes('| test\\-00007 |'));
    assert.ok(page.includes('| claude\\-code:later\\-1 |'));
  });
});
