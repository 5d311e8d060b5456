import assert from 'node:assert/strict';
import { lifecycleOps, prescriptiveRewrite, VIOLATIONS_TO_REWRITE } from '../../../src/core/learn/lifecycle';
import type { RuleStanding } from '../../../src/core/learn/ruleStanding';

const standing = (stage: RuleStanding['stage'], extra: RuleStanding['chips'] = [], quiet = 0): RuleStanding => ({
  stage,
  chips: [stage, ...extra],
  history: [],
  runsWithoutEvidence: quiet,
  violations: 0,
});
const violated = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    traceId: `codex:s${i}`,
    tag: 'violated',
    reason: 'the session ran `npm install left-pad`, which the rule rules out',
    steps: [i + 2],
  }));

describe('what a rule’s standing asks for', () => {
  it('retires a harmful rule with the sessions it hurt, rewords one sessions keep breaking, retires a stale one', () => {
    const words = new Map<string, Array<{ traceId: string; tag: string; reason?: string; steps?: number[] }>>([
      ['bat-00001', [{ traceId: 'codex:a', tag: 'harmful', steps: [4, 5] }]],
      ['conv-00002', violated(VIOLATIONS_TO_REWRITE)],
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
          'Always run `pnpm`, never `npm install` (sessions here kept running it). This repo uses pnpm, never npm.',
        support: violated(VIOLATIONS_TO_REWRITE).map((w) => ({ traceId: w.traceId, steps: w.steps })),
      },
      { op: 'REMOVE', id: 'arch-00003', reason: 'stale: in play in none of the last 5 run(s)', support: [] },
    ]);
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
      new Map([['conv-00002', violated(VIOLATIONS_TO_REWRITE - 1)]]),
    );
    assert.deepEqual(ops, []);
  });

  it('rewords only a rule that prescribes a command and is not worded as an instruction already', () => {
    assert.equal(prescriptiveRewrite('Keep amounts in cents.', violated(3)), undefined);
    assert.equal(prescriptiveRewrite('Always run `pnpm test`, never `npm test`. Use pnpm.', violated(3)), undefined);
    assert.equal(
      prescriptiveRewrite('Run `pnpm db:generate` before `pnpm test`.', []),
      'Always run `pnpm db:generate`, then `pnpm test`. Run `pnpm db:generate` before `pnpm test`.',
    );
  });
});
