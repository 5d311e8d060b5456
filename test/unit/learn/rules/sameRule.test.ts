import assert from 'node:assert/strict';
import {
  decisionNote,
  decisionNoteHead,
  decisionNotes,
  judgedBefore,
  vetoReason,
  type PriorDecision,
} from '../../../../src/core/learn/rules/priorDecisions';
import { commandPurpose, isSameRule, rulePurpose } from '../../../../src/core/learn/rules/sameRule';
import type { DeltaOp } from '../../../../src/core/playbook/delta';

const add = (content: string, traces: string[], section = 'Build and test'): DeltaOp => ({
  op: 'ADD',
  section,
  content,
  support: traces.map((traceId) => ({ traceId, steps: [0] })),
});

describe('the same rule, across runs and wordings', () => {
  it('reads a command by what it runs, in several ecosystems', () => {
    const cases: Array<[string, string]> = [
      ['pnpm test -- src/cart.test.ts', 'pnpm test'],
      ['pnpm add zod', 'pnpm add'],
      ['npm run build', 'npm run build'],
      ['uv run pytest tests/test_cart.py -k totals', 'uv run pytest'],
      ['python -m pytest tests', 'python -m pytest'],
      ['pip install -r requirements.txt', 'pip install'],
      ['cargo test --features serde', 'cargo test'],
      ['cargo clippy -- -D warnings', 'cargo clippy'],
      ['go test ./...', 'go test'],
      ['make test', 'make test'],
      ['cd api && CI=1 pnpm lint', 'pnpm lint'],
      ['./scripts/check.sh --fast', './scripts/check.sh'],
    ];
    for (const [command, purpose] of cases) assert.equal(commandPurpose(command), purpose, command);
  });

  it('matches a rule by its words, or by the command it prescribes under the same section', () => {
    const retired = { content: 'Run `pnpm add zod` before `pnpm build`.', section: 'Build and test' };
    assert.ok(isSameRule({ content: 'Run `pnpm add zod` before `pnpm build`!', section: 'Other' }, retired));
    assert.ok(isSameRule({ content: 'Add packages with `pnpm add <pkg>`.', section: 'build and test' }, retired));
    assert.ok(!isSameRule({ content: 'Add packages with `pnpm add <pkg>`.', section: 'Conventions' }, retired));
    assert.ok(!isSameRule({ content: 'Add packages with `pnpm add <pkg>`.' }, retired), 'no section: words only');
    assert.ok(!isSameRule({ content: 'Run `pnpm test` after `pnpm build`.', section: 'Build and test' }, retired));
    assert.ok(
      !isSameRule({ content: 'Add packages with `pnpm add <pkg>`.', section: 'Build and test' }, retired, false),
      'edits of a rule already there match by words only',
    );
    // the very same actions are one rule wherever each source files it (an agent's memory by its command's kind)
    const rejected = { content: 'We use pnpm here, not npm.', section: 'Conventions' };
    assert.ok(isSameRule({ content: 'Always use pnpm in this repository, never npm.', section: 'Run' }, rejected));
    assert.ok(isSameRule({ content: 'Always use pnpm in this repository, never npm.' }, rejected));
    assert.ok(!isSameRule({ content: 'Always use npm in this repository, never pnpm.', section: 'Run' }, rejected));
    assert.ok(!isSameRule({ content: 'Use uv here, not pip.', section: 'Conventions' }, rejected));
    assert.ok(
      !isSameRule({ content: 'Run `pnpm add zod` before `pnpm build`.', section: 'Run' }, rejected),
      'more actions than the decided rule: another lesson',
    );
    assert.equal(rulePurpose('Never use `npm install` here.'), 'not npm install');
    assert.equal(rulePurpose('Keep amounts in integer cents.'), undefined);
  });

  it('judges an op against every decision about the same rule: the sessions they saw, the latest one’s words', () => {
    const decisions: PriorDecision[] = [
      {
        kind: 'rejected',
        content: 'Run `cargo test --features serde`.',
        section: 'Build and test',
        traceIds: ['s1'],
        at: '2026-11-02T09:00:00.000Z',
      },
      {
        kind: 'retired',
        content: 'Run `cargo test` with the serde feature.',
        section: 'Build and test',
        traceIds: ['s2', 's3'],
        at: '2026-11-20T17:30:00.000Z',
        reason: 'harmful in 2 sessions',
      },
    ];
    const old = judgedBefore(decisions, add('Test with `cargo test --features serde,json`.', ['s3', 's1', 's1']));
    assert.ok(old);
    assert.deepEqual(old.fresh, []);
    assert.equal(vetoReason(old), 'retired on 2026-11-20 (harmful in 2 sessions); no new evidence');
    const back = judgedBefore(decisions, add('Test with `cargo test --features serde,json`.', ['s1', 's7', 's8']));
    assert.ok(back);
    assert.equal(vetoReason(back), undefined);
    assert.equal(
      decisionNote(back),
      'retired on 2026-11-20 (harmful in 2 sessions); proposed again from 2 new sessions',
    );
    assert.equal(decisionNoteHead(decisionNote(back) ?? ''), 'retired on 2026-11-20');
    assert.equal(decisionNoteHead('close to [bat-00002]: Run the tests.'), undefined);
    assert.equal(judgedBefore(decisions, add('Run `go vet ./...` before pushing.', ['s1'])), undefined);
    assert.equal(judgedBefore(decisions, { op: 'REMOVE', id: 'bat-00001', reason: 'x', support: [] }), undefined);
    const notes = decisionNotes(
      [
        { ruleId: 'bat-00009', op: add('Test with `cargo test --features serde`.', ['s9']) },
        { ruleId: 'bat-00010', op: add('Run `go vet ./...` before pushing.', ['s9']) },
      ],
      (op) => judgedBefore(decisions, op),
    );
    assert.deepEqual(
      [...notes],
      [['bat-00009', 'retired on 2026-11-20 (harmful in 2 sessions); proposed again from 1 new session']],
    );
  });
});
