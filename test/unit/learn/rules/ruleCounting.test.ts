import assert from 'node:assert/strict';
import { countBatch, sessionKey, type RuleCounting } from '../../../../src/core/learn/rules/ruleCounting';
import type { Reflection } from '../../../../src/core/learn/types';
import type { BulletTag } from '../../../../src/core/playbook/delta';
import { parsePlaybook } from '../../../../src/core/playbook/markdown';
import { RuleLedger } from '../../../../src/core/store/ruleLedger';
import { WorkspaceState } from '../../../../src/core/store/workspaceState';
import type { StepInput, Trace } from '../../../../src/core/trace/model';
import { assistant, makeTrace, shell, user } from '../../../../testing/traces';
import { tempDir } from '../../../../testing/tmp';

const PLAYBOOK = parsePlaybook(`# Playbook

## Build and test
[bld-00002] helpful=3 harmful=0 :: Run \`pnpm db:generate\` before \`pnpm test\`: without it \`pnpm test\` fails with \`Cannot find module '.prisma/client/default'\`.

## Tooling
[env-00001] helpful=1 harmful=0 :: This repo uses pnpm, never npm. Use pnpm add.

## Conventions
[sty-00004] helpful=0 harmful=0 :: Keep money in integer cents; never use floats in \`src/cart/\`.
`);

const GENERATED = 'the agent ran `pnpm db:generate` as the rule says and it passed';
const NOTHING = 'in play, and nothing in the session bears on it';

let edits = 0;
const edit = (file: string): StepInput => ({
  kind: 'tool_call',
  callId: `edit-${++edits}`,
  tool: 'Edit',
  input: JSON.stringify({ file_path: `/home/dev/acme-shop/${file}`, old_string: 'a', new_string: 'b' }),
});

/** A session that followed the codegen rule, and the checks passed. */
const helpfulSteps = (): StepInput[] => [
  user('fix the cart total bug'),
  ...shell('pnpm db:generate', 'Generated Prisma Client'),
  edit('src/cart/total.ts'),
  ...shell('pnpm test', 'Tests 42 passed'),
  assistant('Fixed; the tests pass.'),
  user('thanks, perfect'),
];
const HELPFUL = makeTrace('claude-code:helpful', helpfulSteps());
const FORK = makeTrace('claude-code:fork', helpfulSteps(), { parentId: HELPFUL.id });
const VIOLATED = makeTrace('claude-code:npm', [
  user('add lodash'),
  ...shell('npm install lodash', 'added 1 package'),
  user('No, we use pnpm here.'),
]);
const QUIET = makeTrace('claude-code:quiet', [
  user('explain the cart module'),
  ...shell('cat src/cart/total.ts', 'export function total() {}'),
  assistant('It sums the line items in floats.'),
]);

const reflection = (trace: Trace, tags: BulletTag[] = []): Reflection => ({ traceId: trace.id, lessons: [], tags });

/** Every session had the codegen and pnpm rules in play (its agent loaded the file that held them). */
const counting = (counted: RuleCounting['counted'] = () => false): RuleCounting => ({
  inPlay: () => new Set(['bld-00002', 'env-00001']),
  counted,
});

describe('rule counting', () => {
  it('keys a fork by the session it was forked from and any other session by its own id', () => {
    assert.equal(sessionKey(HELPFUL), 'claude-code:helpful');
    assert.equal(sessionKey(FORK), 'claude-code:helpful');
  });

  it('counts a helpful session once; a second run backed by the ledger lists the evidence but counts nothing', async () => {
    const first = countBatch([HELPFUL], [reflection(HELPFUL)], PLAYBOOK, counting());
    assert.deepEqual(first.counts, [
      { id: 'bld-00002', helpful: 1, harmful: 0 },
      { id: 'env-00001', helpful: 1, harmful: 0 },
    ]);
    assert.deepEqual(first.evidence, [
      { id: 'bld-00002', traceId: HELPFUL.id, tag: 'helpful', counted: true, reason: GENERATED, steps: [1, 4] },
      { id: 'env-00001', traceId: HELPFUL.id, tag: 'helpful', counted: true, reason: GENERATED, steps: [1, 4] },
    ]);

    const state = new WorkspaceState(tempDir('combee-ledger-'));
    const workspace = '/home/dev/acme-shop';
    const ledger = await RuleLedger.load(state, workspace);
    assert.equal(ledger.counted('bld-00002', sessionKey(HELPFUL)), false);
    await ledger.record(
      'run-1',
      first.evidence.map((e) => ({ ...e, sessionKey: sessionKey(HELPFUL) })),
    );
    // what the next run sees: the ledger as saved
    const saved = await RuleLedger.load(state, workspace);
    assert.equal(saved.counted('bld-00002', 'claude-code:helpful'), true);
    assert.equal(saved.sessions('bld-00002'), 1);
    assert.equal(saved.sessions('sty-00004'), 0);

    const backed = counting((id, key) => saved.counted(id, key));
    const second = countBatch([HELPFUL], [reflection(HELPFUL)], PLAYBOOK, backed);
    assert.deepEqual(second.counts, []);
    assert.deepEqual(
      second.evidence,
      first.evidence.map((e) => ({ ...e, counted: false })),
    );

    // a fork of the counted session is the same session: not counted again either
    const fork = countBatch([FORK], [reflection(FORK)], PLAYBOOK, backed);
    assert.deepEqual(fork.counts, []);
    assert.deepEqual(fork.evidence, [
      { id: 'bld-00002', traceId: FORK.id, tag: 'helpful', counted: false, reason: GENERATED, steps: [1, 4] },
      { id: 'env-00001', traceId: FORK.id, tag: 'helpful', counted: false, reason: GENERATED, steps: [1, 4] },
    ]);

    // recording the second run's evidence changes nothing
    await saved.record(
      'run-2',
      [...second.evidence, ...fork.evidence].map((e) => ({ ...e, sessionKey: 'claude-code:helpful' })),
    );
    assert.equal((await RuleLedger.load(state, workspace)).sessions('bld-00002'), 1);
  });

  it('counts a session and its fork in two batches of one run once (the run claims what it counted)', () => {
    const claimed = new Set<string>();
    const run = {
      inPlay: counting().inPlay,
      counted: (id: string, key: string) => claimed.has(`${id} ${key}`),
      claim: (id: string, key: string) => void claimed.add(`${id} ${key}`),
    };
    const first = countBatch([HELPFUL], [reflection(HELPFUL)], PLAYBOOK, run);
    const second = countBatch([FORK], [reflection(FORK)], PLAYBOOK, run);
    assert.equal(first.counts.length, 2);
    assert.deepEqual(second.counts, []);
    assert.ok(second.evidence.every((e) => !e.counted));
  });

  it('counts a session and its fork in one batch once', () => {
    const { counts, evidence } = countBatch(
      [HELPFUL, FORK],
      [reflection(HELPFUL), reflection(FORK)],
      PLAYBOOK,
      counting(),
    );
    assert.deepEqual(counts, [
      { id: 'bld-00002', helpful: 1, harmful: 0 },
      { id: 'env-00001', helpful: 1, harmful: 0 },
    ]);
    assert.deepEqual(
      evidence.map((e) => [e.id, e.traceId, e.tag, e.counted]),
      [
        ['bld-00002', HELPFUL.id, 'helpful', true],
        ['env-00001', HELPFUL.id, 'helpful', true],
        ['bld-00002', FORK.id, 'helpful', false],
        ['env-00001', FORK.id, 'helpful', false],
      ],
    );
  });

  it('keeps a violated session as evidence tagged violated, and counts nothing for it', () => {
    const { counts, evidence } = countBatch([VIOLATED], [reflection(VIOLATED)], PLAYBOOK, counting());
    assert.deepEqual(counts, []);
    assert.deepEqual(evidence, [
      { id: 'bld-00002', traceId: VIOLATED.id, tag: 'neutral', counted: false, reason: NOTHING },
      {
        id: 'env-00001',
        traceId: VIOLATED.id,
        tag: 'violated',
        counted: false,
        reason: 'the session ran `npm install lodash`, which the rule rules out, and the user asked for the rule’s way',
        steps: [1, 3],
      },
    ]);
  });

  it("counts the reflector's harmful tag, for a rule it tagged that was not otherwise in play", () => {
    const tags: BulletTag[] = [{ id: 'sty-00004', tag: 'harmful', reason: 'floats kept in the cart made it round' }];
    const { counts, evidence } = countBatch([QUIET], [reflection(QUIET, tags)], PLAYBOOK, counting());
    assert.deepEqual(counts, [{ id: 'sty-00004', helpful: 0, harmful: 1 }]);
    assert.deepEqual(evidence, [
      { id: 'bld-00002', traceId: QUIET.id, tag: 'neutral', counted: false, reason: NOTHING },
      { id: 'env-00001', traceId: QUIET.id, tag: 'neutral', counted: false, reason: NOTHING },
      {
        id: 'sty-00004',
        traceId: QUIET.id,
        tag: 'harmful',
        counted: true,
        reason: 'floats kept in the cart made it round',
      },
    ]);
  });

  it("lets a reflector's violated tag win over the trace's helpful word", () => {
    const tags: BulletTag[] = [{ id: 'bld-00002', tag: 'violated', reason: 'ran the tests before generating' }];
    const { counts, evidence } = countBatch([HELPFUL], [reflection(HELPFUL, tags)], PLAYBOOK, counting());
    assert.deepEqual(counts, [{ id: 'env-00001', helpful: 1, harmful: 0 }]);
    assert.deepEqual(evidence[0], {
      id: 'bld-00002',
      traceId: HELPFUL.id,
      tag: 'violated',
      counted: false,
      reason: 'ran the tests before generating',
    });
  });

  it('ignores a reflection tag for an id that is not in the playbook', () => {
    const tags: BulletTag[] = [
      { id: 'zzz-99999', tag: 'helpful', reason: 'a rule the model made up' },
      { id: 'env-00002', tag: 'harmful' },
    ];
    const none: RuleCounting = { inPlay: () => new Set(['gone-00009']), counted: () => false };
    const { counts, evidence } = countBatch([QUIET], [reflection(QUIET, tags)], PLAYBOOK, none);
    assert.deepEqual(counts, []);
    assert.deepEqual(evidence, []);
  });

  it('gives no evidence for a session whose reflection is missing', () => {
    const { counts, evidence } = countBatch([HELPFUL, QUIET], [reflection(QUIET)], PLAYBOOK, counting());
    assert.deepEqual(counts, []);
    assert.deepEqual(
      evidence.map((e) => [e.id, e.traceId, e.tag]),
      [
        ['bld-00002', QUIET.id, 'neutral'],
        ['env-00001', QUIET.id, 'neutral'],
      ],
    );
    const alone = countBatch([HELPFUL], [], PLAYBOOK, counting());
    assert.deepEqual(alone, { counts: [], evidence: [] });
  });

  describe("the reflector's tag against the trace's verdict", () => {
    const NPM_RULE = parsePlaybook(`# Playbook

## Tooling
[env-00007] helpful=0 harmful=0 :: Install packages with \`npm install <pkg>\`.

## Testing
[tst-00008] helpful=0 harmful=0 :: The default \`npm test\` is broken, use \`npm run test:ci\`.
`);
    const both: RuleCounting = { inPlay: () => new Set(['env-00007', 'tst-00008']), counted: () => false };
    const OVERRULED = makeTrace('claude-code:overruled', [
      user('add zod'),
      ...shell('npm install zod', 'npm ERR! Cannot read properties of null', 1),
      user('No, this is a pnpm workspace: use `pnpm add zod`.'),
      ...shell('pnpm add zod', 'Done'),
      ...shell('npm test', 'Error: no test specified', 1),
      ...shell('npm run test:ci', 'Tests 42 passed'),
      user('thanks'),
    ]);

    it('keeps the trace’s harmful for an overruled rule and its helpful for a predicted failure, whatever the reflector says', () => {
      const tags: BulletTag[] = [
        { id: 'env-00007', tag: 'helpful', reason: 'the agent installed the package as the rule says' },
        { id: 'tst-00008', tag: 'harmful', reason: 'npm test failed' },
      ];
      const { counts, evidence } = countBatch([OVERRULED], [reflection(OVERRULED, tags)], NPM_RULE, both);
      assert.deepEqual(counts, [
        { id: 'env-00007', helpful: 0, harmful: 1 },
        { id: 'tst-00008', helpful: 1, harmful: 0 },
      ]);
      assert.deepEqual(
        evidence.map((e) => [e.id, e.tag, e.correction]),
        [
          ['env-00007', 'harmful', 'No, this is a pnpm workspace: use `pnpm add zod`.'],
          ['tst-00008', 'helpful', undefined],
        ],
      );
    });

    it('takes the reflector’s tag where the trace has nothing to say, and its violated over the trace’s helpful', () => {
      const quiet = makeTrace('claude-code:quiet-npm', [user('explain the build'), assistant('It uses esbuild.')]);
      const tags: BulletTag[] = [{ id: 'env-00007', tag: 'harmful', reason: 'the rule sent the agent to npm' }];
      const { counts } = countBatch([quiet], [reflection(quiet, tags)], NPM_RULE, both);
      assert.deepEqual(counts, [{ id: 'env-00007', helpful: 0, harmful: 1 }]);

      const violatedOverHelpful: BulletTag[] = [{ id: 'bld-00002', tag: 'violated', reason: 'tests before generate' }];
      const helped = countBatch([HELPFUL], [reflection(HELPFUL, violatedOverHelpful)], PLAYBOOK, counting());
      assert.equal(helped.evidence.find((e) => e.id === 'bld-00002')?.tag, 'violated');
    });

    it('lets neither side’s opposite sign win: the trace’s violated (the rule was right) over the reflector’s harmful', () => {
      const pnpmRule = parsePlaybook(`# Playbook

## Tooling
[env-00005] helpful=0 harmful=0 :: Use pnpm.
`);
      const fixed = makeTrace('claude-code:npm-then-pnpm', [
        user('install the dependencies'),
        ...shell('npm install', 'npm ERR! code ERESOLVE', 1),
        ...shell('pnpm install', 'Done in 2.1s'),
      ]);
      const tags: BulletTag[] = [{ id: 'env-00005', tag: 'harmful', reason: 'npm failed' }];
      const run = countBatch([fixed], [reflection(fixed, tags)], pnpmRule, {
        inPlay: () => new Set(['env-00005']),
        counted: () => false,
      });
      assert.deepEqual(run.counts, []);
      assert.deepEqual(run.evidence[0].fix, { ran: 'npm install', then: 'pnpm install' });
    });
  });
});
