import assert from 'node:assert/strict';
import { ruleCommands, ruleEvidence, sessionSignals, type RuleInPlay } from '../../../src/core/learn/ruleEvidence';
import type { StepInput } from '../../../src/core/trace/model';
import { assistant, makeTrace, shell, user } from '../../support/traces';

let edits = 0;
const edit = (file: string): StepInput => ({
  kind: 'tool_call',
  callId: `edit-${++edits}`,
  tool: 'Edit',
  input: JSON.stringify({ file_path: `/home/dev/acme-shop/${file}`, old_string: 'a', new_string: 'b' }),
});

const PNPM_ONLY: RuleInPlay = { id: 'env-00001', content: 'This repo uses pnpm, never npm. Use pnpm add.' };
const CODEGEN: RuleInPlay = {
  id: 'bld-00002',
  content:
    "Run `pnpm db:generate` before `pnpm test`: without it `pnpm test` fails with `Error: Cannot find module '.prisma/client/default'`.",
};
const TZ_VARIANT: RuleInPlay = {
  id: 'tst-00003',
  content:
    'Run `TZ=UTC pnpm vitest run src/cart`, not `pnpm vitest run src/cart`: the plain form fails with `Expected: "2026-11-03 00:00" Received: "2026-11-02 23:00"`.',
};
const CENTS: RuleInPlay = { id: 'sty-00004', content: 'Keep money in integer cents; never use floats in `src/cart/`.' };

describe('rule evidence', () => {
  describe('ruleCommands', () => {
    it('reads a plain-word tool choice: the chosen tool and its subcommand are prescribed, its counterparts forbidden', () => {
      assert.deepEqual(ruleCommands(PNPM_ONLY.content), {
        prescribed: ['pnpm', 'pnpm add'],
        forbidden: ['npm', 'yarn', 'bun'],
      });
      assert.deepEqual(ruleCommands('Install Python packages with uv.'), {
        prescribed: ['uv'],
        forbidden: ['pip', 'pip3', 'poetry'],
      });
    });

    it('forbids the command after "not" in its own clause and keeps the env-prefixed form prescribed', () => {
      assert.deepEqual(ruleCommands(TZ_VARIANT.content), {
        prescribed: ['TZ=UTC pnpm vitest run src/cart'],
        forbidden: ['pnpm vitest run src/cart'],
      });
    });

    it('prescribes both commands of an ordering rule and ignores error text and paths in backticks', () => {
      assert.deepEqual(ruleCommands(CODEGEN.content), { prescribed: ['pnpm db:generate', 'pnpm test'], forbidden: [] });
      assert.deepEqual(ruleCommands(CENTS.content), { prescribed: [], forbidden: [] });
      assert.deepEqual(ruleCommands('The project is a pnpm workspace; see `pnpm-workspace.yaml`.'), {
        prescribed: [],
        forbidden: [],
      });
    });

    it('carries a negation through a list, stops it at the next clause, and reads "instead of" and "don\'t forget"', () => {
      assert.deepEqual(ruleCommands('Never run `npm test`, `yarn test` or `bun test`, use `pnpm test` instead.'), {
        prescribed: ['pnpm test'],
        forbidden: ['npm test', 'yarn test', 'bun test'],
      });
      assert.deepEqual(ruleCommands('Use `pnpm add zod` instead of `npm install zod`.'), {
        prescribed: ['pnpm add zod'],
        forbidden: ['npm install zod'],
      });
      assert.deepEqual(ruleCommands("Don't forget to run `make proto` after editing `api/cart.proto`."), {
        prescribed: ['make proto'],
        forbidden: [],
      });
      assert.deepEqual(ruleCommands('Avoid `git push --force` on shared branches.'), {
        prescribed: [],
        forbidden: ['git push --force'],
      });
    });
  });

  describe('ruleEvidence', () => {
    it('tags a followed rule whose commands and checks passed as helpful, with the followed steps', () => {
      const trace = makeTrace('claude-code:helpful', [
        user('fix the cart total bug'),
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 1, 2
        edit('src/cart/total.ts'), // 3
        ...shell('pnpm test', 'Tests 42 passed'), // 4, 5
        assistant('Fixed; the tests pass.'),
        user('thanks, perfect'),
      ]);
      assert.deepEqual(ruleEvidence(trace, [CODEGEN]), [
        {
          id: 'bld-00002',
          tag: 'helpful',
          reason: 'the agent ran `pnpm db:generate` as the rule says and it passed',
          steps: [1, 4],
        },
      ]);
    });

    it('tags a followed rule as harmful when the user corrects the agent right after', () => {
      const trace = makeTrace('claude-code:corrected', [
        user('fix the cart total bug'),
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 1, 2
        assistant('Regenerated the client.'), // 3
        user('No, the client was fine. You need to fix the rounding in total.ts.'), // 4
        edit('src/cart/total.ts'),
      ]);
      const [evidence] = ruleEvidence(trace, [CODEGEN]);
      assert.equal(evidence.tag, 'harmful');
      assert.deepEqual(evidence.steps, [1, 4]);
      assert.equal(evidence.reason, 'the user corrected the agent right after it followed the rule');
    });

    it('tags `npm install` under a pnpm rule as violated, with the step of the command', () => {
      const trace = makeTrace('claude-code:npm', [
        user('add lodash'),
        ...shell('npm install lodash', 'added 1 package'), // 1, 2
        ...shell('pnpm add lodash', 'Done'), // 3, 4
        user('thanks'),
      ]);
      assert.deepEqual(ruleEvidence(trace, [PNPM_ONLY]), [
        {
          id: 'env-00001',
          tag: 'violated',
          reason: 'the session ran `npm install lodash`, which the rule rules out',
          steps: [1],
        },
      ]);
    });

    it('tags the counterpart of a prescribed command and the plain form of a variant as violated', () => {
      const npmTest = makeTrace('claude-code:npm-test', [
        user('run the tests'),
        ...shell('cd web && npm test', 'Tests 3 passed'), // 1, 2
      ]);
      const [codegen] = ruleEvidence(npmTest, [CODEGEN]);
      assert.equal(codegen.tag, 'violated');
      assert.deepEqual(codegen.steps, [1]);

      const plain = makeTrace('claude-code:tz', [
        user('fix the cart date test'),
        ...shell('pnpm vitest run src/cart', 'Expected: "2026-11-03 00:00"', 1), // 1, 2
        ...shell('TZ=UTC pnpm vitest run src/cart', 'Tests 8 passed'), // 3, 4
      ]);
      const [tz] = ruleEvidence(plain, [TZ_VARIANT]);
      assert.equal(tz.tag, 'violated', 'violated wins over the helpful run at step 3');
      assert.deepEqual(tz.steps, [1]);

      const followed = makeTrace('claude-code:tz-ok', [...shell('TZ=UTC pnpm vitest run src/cart', 'Tests 8 passed')]);
      assert.equal(ruleEvidence(followed, [TZ_VARIANT])[0].tag, 'helpful');
    });

    it('tags a rule as neutral, with no steps, when nothing in the session bears on it', () => {
      const trace = makeTrace('claude-code:unrelated', [
        user('explain the cart module'),
        ...shell('cat src/cart/total.ts', 'export function total() {}'),
        assistant('It sums the line items.'),
      ]);
      assert.deepEqual(ruleEvidence(trace, [CODEGEN, PNPM_ONLY]), [
        { id: 'bld-00002', tag: 'neutral', reason: 'in play, and nothing in the session bears on it', steps: [] },
        { id: 'env-00001', tag: 'neutral', reason: 'in play, and nothing in the session bears on it', steps: [] },
      ]);
    });

    it('tags a rule the agent cited as helpful when no correction followed', () => {
      const trace = makeTrace('claude-code:cited', [
        user('fix the rounding'),
        assistant('Per [sty-00004] I keep the amounts in cents.'), // 1
        edit('src/cart/total.ts'),
        assistant('Done.'),
      ]);
      assert.deepEqual(ruleEvidence(trace, [CENTS]), [
        { id: 'sty-00004', tag: 'helpful', reason: 'the agent cited the rule and no correction followed', steps: [1] },
      ]);
    });

    it('tags a rule the agent cited as harmful when the user corrected it right after', () => {
      const trace = makeTrace('claude-code:cited-corrected', [
        user('fix the rounding'),
        assistant('Per [sty-00004] I keep the amounts in cents.'), // 1
        edit('src/cart/total.ts'), // 2
        user('No, use the Money class instead.'), // 3
      ]);
      const [evidence] = ruleEvidence(trace, [CENTS]);
      assert.equal(evidence.tag, 'harmful');
      assert.deepEqual(evidence.steps, [1, 3]);
    });

    it('tags a rule without commands as neutral however the session went, unless it is cited', () => {
      const busy = makeTrace('claude-code:busy', [
        user('fix the rounding'),
        edit('src/cart/total.ts'),
        ...shell('pnpm test', 'Tests 42 passed'),
        assistant('Done.'),
        user('no, you forgot the tax'),
      ]);
      const [evidence] = ruleEvidence(busy, [CENTS]);
      assert.equal(evidence.tag, 'neutral');
      assert.deepEqual(evidence.steps, []);
    });

    it('tags a prescribed command that failed and kept failing as harmful, but not one that passed later', () => {
      const stuck = makeTrace('claude-code:stuck', [
        user('fix the cart'),
        ...shell('pnpm db:generate', 'Error: P1012 schema validation', 1), // 1, 2
        ...shell('pnpm db:generate', 'Error: P1012 schema validation', 1), // 3, 4
      ]);
      assert.deepEqual(ruleEvidence(stuck, [CODEGEN]), [
        {
          id: 'bld-00002',
          tag: 'harmful',
          reason: 'the agent ran `pnpm db:generate` as the rule says and it kept failing',
          steps: [3, 4],
        },
      ]);

      const recovered = makeTrace('claude-code:recovered', [
        user('fix the cart'),
        ...shell('pnpm db:generate', 'Error: P1012 schema validation', 1), // 1, 2
        edit('prisma/schema.prisma'), // 3
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 4, 5
      ]);
      const [evidence] = ruleEvidence(recovered, [CODEGEN]);
      assert.equal(evidence.tag, 'helpful');
      assert.deepEqual(evidence.steps, [4]);
    });

    it('tags a followed rule as harmful when the edits were reverted afterwards', () => {
      const trace = makeTrace('claude-code:reverted', [
        user('fix the cart'),
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 1, 2
        edit('src/cart/total.ts'), // 3
        ...shell('git checkout -- src/cart/total.ts', ''), // 4, 5
        assistant('I reverted my change.'),
      ]);
      const [evidence] = ruleEvidence(trace, [CODEGEN]);
      assert.equal(evidence.tag, 'harmful');
      assert.deepEqual(evidence.steps, [1, 4]);
    });

    it('keeps a followed rule neutral when a correction came only much later, and cuts commands in reasons', () => {
      const later = makeTrace('claude-code:later', [
        user('fix the cart'),
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 1, 2
        assistant('Generated.'), // 3
        user('now the header'), // 4: the user's reply, not a correction
        ...Array.from({ length: 5 }, (_, i) => edit(`src/header/h${i}.ts`)),
        user('no, you forgot the footer'),
      ]);
      const [evidence] = ruleEvidence(later, [CODEGEN]);
      assert.equal(evidence.tag, 'neutral');
      assert.deepEqual(evidence.steps, [1]);

      const long = `npm install ${'left-pad '.repeat(20).trim()}`;
      const [violated] = ruleEvidence(makeTrace('claude-code:long', [...shell(long, 'ok')]), [PNPM_ONLY]);
      const quoted = /`([^`]*)`/.exec(violated.reason)?.[1] ?? '';
      assert.equal(quoted.length, 80);
      assert.ok(quoted.endsWith('…'));
    });

    it('returns one verdict per rule in the order given, the same every time', () => {
      const trace = makeTrace('claude-code:order', [
        user('add zod and test'),
        ...shell('npm install zod', 'added 1 package'), // 1, 2
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 3, 4
        assistant('Per [sty-00004] amounts stay in cents.'), // 5
      ]);
      const rules = [CENTS, PNPM_ONLY, CODEGEN, TZ_VARIANT];
      const tags = ruleEvidence(trace, rules).map((e) => [e.id, e.tag]);
      assert.deepEqual(tags, [
        ['sty-00004', 'helpful'],
        ['env-00001', 'violated'],
        ['bld-00002', 'helpful'],
        ['tst-00003', 'neutral'],
      ]);
      assert.deepEqual(ruleEvidence(trace, rules), ruleEvidence(trace, rules, sessionSignals(trace)));
    });
  });

  describe('sessionSignals', () => {
    it('reads checks after the last edit, failing checks, corrections, acceptances, errors and reverts', () => {
      const trace = makeTrace('claude-code:signals', [
        user("don't use npm here"), // 0: the request, not a correction
        edit('src/cart/total.ts'), // 1
        ...shell('pnpm test', 'Tests 1 failed', 1), // 2, 3
        user('no, you need to run db:generate first'), // 4
        edit('src/cart/tax.ts'), // 5
        ...shell('pnpm test', 'Tests 42 passed'), // 6, 7
        ...shell('pnpm lint', '2 problems', 1), // 8, 9
        ...shell('git stash', 'Saved working directory'), // 10, 11
        user('lgtm, works now'), // 12
      ]);
      assert.deepEqual(sessionSignals(trace), {
        edits: [1, 5],
        checksPassedAfterLastEdit: [6],
        checksFailingAtEnd: [8],
        corrections: [4],
        acceptances: [12],
        toolErrors: [3, 9],
        interrupted: false,
        abandoned: false,
        reverted: [10],
      });
    });

    it('marks a session that ends on a failure as abandoned and one with an interrupted tool as interrupted', () => {
      const trace = makeTrace('claude-code:abandoned', [
        user('fix the build'),
        ...shell('git checkout main', "Switched to branch 'main'"),
        ...shell('pnpm build', 'error TS2322', 1),
        {
          kind: 'tool_result',
          callId: 'never-called',
          output: '[Request interrupted by user]',
          isError: true,
          interrupted: true,
        },
      ]);
      const signals = sessionSignals(trace);
      assert.equal(signals.abandoned, true);
      assert.equal(signals.interrupted, true);
      assert.deepEqual(signals.reverted, [], 'switching branches with no edits reverts nothing');
      assert.deepEqual(signals.checksFailingAtEnd, [3]);
    });
  });
});
