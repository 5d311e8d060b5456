import assert from 'node:assert/strict';
import {
  lifecycleOps,
  prescriptiveRewrite,
  VIOLATIONS_TO_REWRITE,
  type Word,
} from '../../../../src/core/learn/rules/lifecycle';
import type { RuleStanding } from '../../../../src/core/learn/rules/ruleStanding';

const standing = (stage: RuleStanding['stage'], extra: RuleStanding['chips'] = [], quiet = 0): RuleStanding => ({
  stage,
  counters: { claimed: { helpful: 0, harmful: 0 }, confirmed: { helpful: 0, harmful: 0 } },
  chips: [stage, ...extra],
  history: [],
  runsWithoutEvidence: quiet,
  violations: 0,
});
/** Sessions that ran `ran`, failed, and then passed with the rule's `then`. */
const fixedBy = (n: number, ran = 'npm install', then = 'pnpm install', from = 0): Word[] =>
  Array.from({ length: n }, (_, i) => ({
    traceId: `codex:s${from + i}`,
    tag: 'violated',
    reason: `the session ran \`${ran} left-pad\`, which the rule rules out, then the rule's \`${then}\` passed`,
    steps: [i + 2, i + 4],
    fix: { ran, then },
  }));
/** Sessions that broke the rule and were not shown to be fixed by it (or were recorded before fixes were). */
const violated = (n: number): Word[] =>
  Array.from({ length: n }, (_, i) => ({
    traceId: `codex:v${i}`,
    tag: 'violated',
    reason: 'the session ran `npm install left-pad`, which the rule rules out',
    steps: [i + 2],
  }));

describe('what a rule’s standing asks for', () => {
  it('retires a harmful rule with the sessions it hurt, rewords one sessions keep breaking, retires a stale one', () => {
    const words = new Map<string, Word[]>([
      ['bat-00001', [{ traceId: 'codex:a', tag: 'harmful', steps: [4, 5] }]],
      ['conv-00002', fixedBy(VIOLATIONS_TO_REWRITE)],
    ]);
    const ops = lifecycleOps(
      [
        {
          id: 'bat-00001',
          content: 'Run `pnpm test:all`.',
          helpful: 1,
          harmful: 3,
          pinned: false,
          standing: standing('harmful'),
        },
        {
          id: 'conv-00002',
          content: 'This repo uses pnpm, never npm.',
          helpful: 0,
          harmful: 0,
          pinned: false,
          standing: standing('new'),
        },
        {
          id: 'arch-00003',
          content: 'Keep amounts in cents.',
          helpful: 0,
          harmful: 0,
          pinned: false,
          standing: standing('new', ['stale'], 5),
        },
        {
          id: 'arch-00004',
          content: 'Fine as it is.',
          helpful: 4,
          harmful: 0,
          pinned: false,
          standing: standing('proven'),
        },
      ],
      words,
    );
    assert.deepEqual(ops, [
      {
        op: 'REMOVE',
        id: 'bat-00001',
        reason: 'harmful: tagged harmful 3× against helpful 1× (harmful ≥ helpful + 2)',
        support: [{ traceId: 'codex:a', steps: [4, 5] }],
      },
      {
        op: 'UPDATE',
        id: 'conv-00002',
        content:
          'To install packages, always run `pnpm install`, never `npm install` (it failed in 3 sessions here). This repo uses pnpm, never npm.',
        support: fixedBy(VIOLATIONS_TO_REWRITE).map((w) => ({ traceId: w.traceId, steps: w.steps ?? [] })),
      },
      { op: 'REMOVE', id: 'arch-00003', reason: 'stale: in play in none of the last 5 run(s)', support: [] },
    ]);
  });

  it('asks nothing of a harmful rule reworded since the sessions that hurt it (its counters judged the old wording)', () => {
    const rule = {
      id: 'bat-00002',
      content: 'Install dependencies with `pnpm install`, not `npm install`.',
      helpful: 0,
      harmful: 2,
      pinned: false,
      standing: standing('harmful'),
    };
    assert.deepEqual(lifecycleOps([rule], new Map([['bat-00002', []]])), []);
    assert.equal(lifecycleOps([rule], new Map())[0]?.op, 'REMOVE', 'no evidence recorded at all: the counters speak');
  });

  it('asks nothing for a pinned rule, nor a rewording before enough sessions broke it', () => {
    const ops = lifecycleOps(
      [
        {
          id: 'bat-00001',
          content: 'Run `pnpm test:all`.',
          helpful: 0,
          harmful: 4,
          pinned: true,
          standing: standing('harmful', ['stale'], 9),
        },
        { id: 'conv-00002', content: 'Use pnpm.', helpful: 0, harmful: 0, pinned: false, standing: standing('new') },
      ],
      new Map([['conv-00002', [...fixedBy(VIOLATIONS_TO_REWRITE - 1), ...violated(5)]]]),
    );
    assert.deepEqual(ops, []);
  });

  it('rewords only a rule that prescribes a command and is not worded as an instruction already', () => {
    assert.equal(prescriptiveRewrite('Keep amounts in cents.', fixedBy(3)), undefined);
    assert.equal(prescriptiveRewrite('Always run `pnpm test`, never `npm test`. Use pnpm.', fixedBy(3)), undefined);
    assert.equal(
      prescriptiveRewrite('To install packages, always run `pnpm install`, never `npm install`. Use pnpm.', fixedBy(3)),
      undefined,
    );
    assert.equal(prescriptiveRewrite('Run `pnpm db:generate` before `pnpm test`.', []), undefined, 'no violation');
  });

  it('does not glue two commands, nor count the user’s own way: the reported rewording is not made', () => {
    const rule = 'This repo uses npm; add packages with `npm install <pkg>`.';
    // what the old wording counted: sessions that ran `pnpm tsc` because the user wanted pnpm (now harmful, not violated)
    const asked: Word[] = Array.from({ length: 3 }, (_, i) => ({
      traceId: `codex:u${i}`,
      tag: 'harmful',
      reason: 'the user asked for `pnpm tsc`, which the rule rules out',
      correction: 'No, we use pnpm here: run `pnpm tsc`.',
    }));
    assert.equal(prescriptiveRewrite(rule, [...asked, ...violated(3)]), undefined);
    // fixes whose two commands do not do one job (a typecheck run instead of an install) reword nothing
    assert.equal(prescriptiveRewrite(rule, fixedBy(3, 'pnpm tsc', 'npm install <pkg>')), undefined);
    // two jobs broken, neither three times: no rewording either
    const mixed = [...fixedBy(2, 'pnpm add', 'npm install <pkg>'), ...fixedBy(2, 'pnpm test', 'npm', 2)];
    assert.equal(prescriptiveRewrite(rule, mixed), undefined);
  });

  it('rewords from the one command the rule prescribes for the broken job and the one run instead (pnpm, uv, cargo)', () => {
    assert.equal(
      prescriptiveRewrite('Use pnpm.', [...fixedBy(3), ...fixedBy(1, 'npm test', 'pnpm test', 3)]),
      'To install packages, always run `pnpm install`, never `npm install` (it failed in 3 sessions here). Use pnpm.',
    );
    assert.equal(
      prescriptiveRewrite('Use `uv sync` to install dependencies, not pip.', fixedBy(3, 'pip install', 'uv sync')),
      'To install packages, always run `uv sync`, never `pip install` (it failed in 3 sessions here). Use `uv sync` to install dependencies, not pip.',
    );
    assert.equal(
      prescriptiveRewrite(
        'Never run `cargo test` here, use `cargo nextest run`.',
        fixedBy(4, 'cargo test', 'cargo nextest run'),
      ),
      'To run the tests, always run `cargo nextest run`, never `cargo test` (it failed in 4 sessions here). Never run `cargo test` here, use `cargo nextest run`.',
    );
  });

  it('replaces a harmful rule by the correction that overruled it, counters reset; retires it when that is a rule already', () => {
    const overruled: Word[] = ['a', 'b'].map((s, i) => ({
      traceId: `codex:${s}`,
      tag: 'harmful',
      reason: 'the user asked for `pnpm add lodash-es`, which the rule rules out',
      steps: [3, 4],
      correction: i === 0 ? 'No, we use pnpm: `pnpm add lodash-es`' : 'No, we use pnpm here: run `pnpm add zod`.',
    }));
    const rule = {
      id: 'env-00007',
      content: 'Install packages with `npm install <pkg>`.',
      helpful: 0,
      harmful: 2,
      pinned: false,
      standing: standing('harmful'),
    };
    const words = new Map([['env-00007', [...overruled, { traceId: 'codex:c', tag: 'harmful', steps: [2] }]]]);
    assert.deepEqual(lifecycleOps([rule], words), [
      {
        op: 'UPDATE',
        id: 'env-00007',
        content: 'We use pnpm here: run `pnpm add zod`.',
        resetCounters: true,
        support: overruled.map((w) => ({ traceId: w.traceId, steps: [3, 4] })),
      },
    ]);
    const [retired] = lifecycleOps([rule], words, [rule.content, 'We use pnpm here: run `pnpm add zod`.']);
    assert.equal(retired.op, 'REMOVE');
    assert.match(retired.op === 'REMOVE' ? retired.reason : '', /the correction that overruled it is a rule already$/);
  });
});
