import assert from 'node:assert/strict';
import { samePurpose } from '../../../../src/core/learn/rules/conflicts';
import { mergeSameLessons } from '../../../../src/core/learn/mergeOps';
import { isSameRule } from '../../../../src/core/learn/rules/sameRule';
import { differentActions, mayBeOneLesson, opposedActions } from '../../../../src/core/learn/rules/sameAction';
import { semanticDuplicates } from '../../../../src/core/learn/semanticDedupe';
import { aggregateOffline } from '../../../../src/core/llm/offline/aggregator';
import { applyDelta } from '../../../../src/core/playbook/apply';
import type { AddOp } from '../../../../src/core/playbook/delta';
import { parsePlaybook } from '../../../../src/core/playbook/markdown';
import { bullets } from '../../../../src/core/playbook/model';
import { isNearDuplicate } from '../../../../src/core/playbook/similarity';

// Lessons that differ only in their target, worded alike at length so that shared words alone would merge them.
const LONG =
  'in services/cart: the generated client is not committed, and the test target reads it from the build folder';
const TARGET_PAIRS: Array<[string, string]> = [
  [`Run \`make gen-007\` before \`make test-007\` ${LONG}.`, `Run \`make gen-008\` before \`make test-008\` ${LONG}.`],
  [
    `Run \`npm run gen:web\` before \`npm run test:web\` ${LONG}.`,
    `Run \`npm run gen:api\` before \`npm run test:api\` ${LONG}.`,
  ],
  [
    `Run \`cargo run --bin gen-web\` before \`cargo test --test web\` ${LONG}.`,
    `Run \`cargo run --bin gen-api\` before \`cargo test --test api\` ${LONG}.`,
  ],
  [
    `Run \`make gen-007\` before \`make test-007\` ${LONG}.`,
    `Run \`npm run gen:web\` before \`npm run test:web\` ${LONG}.`,
  ],
];

const OPPOSITES: Array<[string, string]> = [
  [`Always run \`make lint\` ${LONG}.`, `Never run \`make lint\` ${LONG}.`],
  [
    'Always use the shared fixtures helper for the orders tests in the checkout package.',
    'Never use the shared fixtures helper for the orders tests in the checkout package.',
  ],
];

const add = (content: string, traceId: string): AddOp => ({
  op: 'ADD',
  section: 'Build and test',
  content,
  support: [{ traceId, steps: [1] }],
});

describe('rules merged by the same action, not by shared words', () => {
  it('keeps lessons that differ only in their make, npm-script or cargo target apart', () => {
    for (const [a, b] of TARGET_PAIRS) {
      assert.equal(samePurpose(a, b), undefined, `${a} | ${b}`);
      assert.equal(isNearDuplicate(a, b), false, `${a} | ${b}`);
      assert.equal(isSameRule({ content: a, section: 'Build' }, { content: b, section: 'Build' }), false);
      assert.equal(mayBeOneLesson(a, b), false, `${a} | ${b}`);
    }
    // the same targets in other words are one lesson
    const [a] = TARGET_PAIRS[0];
    const again = `Before \`make test-007\`, run \`make gen-007\` ${LONG}.`;
    assert.equal(differentActions(a, again), false);
    assert.ok(isNearDuplicate(a, again));
  });

  it('names a folder in prose only where a lesson applies: two tools in one folder are two lessons', () => {
    assert.equal(
      samePurpose(
        'Run `make gen-007` before `make test-007` in services/cart.',
        'Run `npm run gen:web` before `npm run test:web` in services/cart.',
      ),
      undefined,
    );
    // a command acting on the files the other names is one lesson from two ends
    assert.ok(
      samePurpose(
        '`pnpm dev` needs `.env.local`: copy it from `.env.example` first.',
        'Run `cp .env.example .env.local` once before starting the dev server.',
      ),
    );
  });

  it('never merges "never X" into "always X"', () => {
    for (const [a, b] of OPPOSITES) {
      assert.equal(samePurpose(a, b), undefined, `${a} | ${b}`);
      assert.equal(isNearDuplicate(a, b), false, `${a} | ${b}`);
    }
    assert.ok(opposedActions(...OPPOSITES[0]));
    assert.equal(mayBeOneLesson(...OPPOSITES[0]), false);
  });

  it('applies every lesson to the playbook: no target or opposite is skipped as a near-duplicate', () => {
    for (const [a, b] of [...TARGET_PAIRS, ...OPPOSITES]) {
      const { playbook, applied } = applyDelta(parsePlaybook('## Build and test\n'), {
        ops: [add(a, 't1'), add(b, 't2')],
        tags: [],
      });
      assert.deepEqual(
        applied.map((x) => x.status),
        ['applied', 'applied'],
        `${a} | ${b}`,
      );
      assert.equal(bullets(playbook).length, 2);
    }
    // the same lesson, worded the same, is still one rule
    const same = TARGET_PAIRS[0][0];
    const { applied } = applyDelta(parsePlaybook('## Build and test\n'), {
      ops: [add(same, 't1'), add(`${same} `, 't2')],
      tags: [],
    });
    assert.deepEqual(
      applied.map((x) => x.status),
      ['applied', 'skipped'],
    );
  });

  it('merges in code only the same lesson, and the offline aggregator keeps targets apart', () => {
    for (const [a, b] of [...TARGET_PAIRS, ...OPPOSITES]) {
      const merged = mergeSameLessons([
        { nodeId: 'x', delta: { ops: [add(a, 't1')], tags: [] } },
        { nodeId: 'y', delta: { ops: [add(b, 't2')], tags: [] } },
      ]);
      assert.equal(merged.merged, 0, `${a} | ${b}`);
    }
    const lessons = TARGET_PAIRS[0].map((content, i) => ({
      traceId: `t${i}`,
      lessons: [
        { section: 'Build and test', content, kind: 'rule' as const, evidence: { traceId: `t${i}`, steps: [1] } },
      ],
      tags: [],
    }));
    const { delta } = aggregateOffline({ level: 'single', reflections: lessons, deltas: [] }, parsePlaybook(''));
    const adds = delta.ops.filter((op) => op.op === 'ADD');
    assert.equal(adds.length, 2);
  });

  it('an embedding that finds two targets alike does not merge them', async () => {
    const [a, b] = TARGET_PAIRS[0];
    const sameVector = async (texts: string[]) => texts.map(() => [1, 0]);
    const playbook = parsePlaybook(`## Build and test\n[bat-00001] helpful=0 harmful=0 :: ${a}\n`);
    const reasons = await semanticDuplicates([add(b, 't2')], playbook, sameVector, new Map());
    assert.equal(reasons.size, 0);
    // the same action in other words is still the same meaning
    const again = `Before \`make test-007\`, always run \`make gen-007\` ${LONG}.`;
    const same = await semanticDuplicates([add(again, 't3')], playbook, sameVector, new Map());
    assert.equal(same.size, 1);
  });
});
