import assert from 'node:assert/strict';
import { ruleCommands, ruleEvidence, sessionSignals, type RuleInPlay } from '../../../src/core/learn/ruleEvidence';
import { requestedCommands } from '../../../src/core/learn/ruleText';
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

const USE_PNPM: RuleInPlay = { id: 'env-00005', content: 'Use pnpm.' };
const UV_SYNC: RuleInPlay = { id: 'env-00006', content: 'Use `uv sync` to install dependencies, not pip.' };
const NPM_INSTALL: RuleInPlay = { id: 'env-00007', content: 'Install packages with `npm install <pkg>`.' };
const BROKEN_DEFAULT: RuleInPlay = {
  id: 'tst-00008',
  content: 'The default `npm test` is broken, use `npm run test:ci`.',
};
const NEXTEST: RuleInPlay = { id: 'tst-00009', content: 'Never run `cargo test` here, use `cargo nextest run`.' };
const MAKE_TEST: RuleInPlay = { id: 'tst-00010', content: 'Run the tests with `make test`.' };

describe('rule evidence', () => {
  describe('ruleCommands', () => {
    it('reads a plain-word tool choice: the chosen tool and its subcommand are prescribed, its counterparts forbidden', () => {
      assert.deepEqual(ruleCommands(PNPM_ONLY.content), {
        prescribed: ['pnpm', 'pnpm add'],
        forbidden: ['npm', 'yarn', 'bun'],
        broken: [],
      });
      assert.deepEqual(ruleCommands('Install Python packages with uv.'), {
        prescribed: ['uv'],
        forbidden: ['pip', 'pip3', 'poetry'],
        broken: [],
      });
    });

    it('forbids the command after "not" in its own clause and keeps the env-prefixed form prescribed', () => {
      assert.deepEqual(ruleCommands(TZ_VARIANT.content), {
        prescribed: ['TZ=UTC pnpm vitest run src/cart'],
        forbidden: ['pnpm vitest run src/cart'],
        broken: [],
      });
    });

    it('prescribes both commands of an ordering rule and ignores error text and paths in backticks', () => {
      assert.deepEqual(ruleCommands(CODEGEN.content), {
        prescribed: ['pnpm db:generate', 'pnpm test'],
        forbidden: [],
        broken: [],
      });
      assert.deepEqual(ruleCommands(CENTS.content), { prescribed: [], forbidden: [], broken: [] });
      assert.deepEqual(ruleCommands('The project is a pnpm workspace; see `pnpm-workspace.yaml`.'), {
        prescribed: [],
        forbidden: [],
        broken: [],
      });
    });

    it('carries a negation through a list, stops it at the next clause, and reads "instead of" and "don\'t forget"', () => {
      assert.deepEqual(ruleCommands('Never run `npm test`, `yarn test` or `bun test`, use `pnpm test` instead.'), {
        prescribed: ['pnpm test'],
        forbidden: ['npm test', 'yarn test', 'bun test'],
        broken: [],
      });
      assert.deepEqual(ruleCommands('Use `pnpm add zod` instead of `npm install zod`.'), {
        prescribed: ['pnpm add zod'],
        forbidden: ['npm install zod'],
        broken: [],
      });
      assert.deepEqual(ruleCommands("Don't forget to run `make proto` after editing `api/cart.proto`."), {
        prescribed: ['make proto'],
        forbidden: [],
        broken: [],
      });
      assert.deepEqual(ruleCommands('Avoid `git push --force` on shared branches.'), {
        prescribed: [],
        forbidden: ['git push --force'],
        broken: [],
      });
    });
  });

  describe('requestedCommands', () => {
    it('reads the commands a user types without backticks after a word that asks for or rules them out', () => {
      const asked = (text: string) => {
        const { prescribed, forbidden } = requestedCommands(text);
        return { prescribed, forbidden };
      };
      assert.deepEqual(asked("Don't run go test directly, use make test: it sets RELAY_CONFIG and -race."), {
        prescribed: ['make test'],
        forbidden: ['go test'],
      });
      assert.deepEqual(asked('No, python app/main.py never worked here: run it with uv run fastapi dev app/main.py.'), {
        prescribed: ['uv run fastapi dev app/main.py'],
        forbidden: [],
      });
      assert.deepEqual(asked('Please use make test, not go test ./... — the Makefile sets the test config.'), {
        prescribed: ['make test'],
        forbidden: ['go test ./...'],
      });
      assert.deepEqual(asked('No, we use pnpm here, not npm.'), {
        prescribed: ['pnpm'],
        forbidden: ['npm', 'yarn', 'bun'],
      });
      assert.deepEqual(asked('explain how the cargo workspace is laid out'), { prescribed: [], forbidden: [] });
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

    it('tags the counterpart of a prescribed command that worked unopposed as harmful, and a variant fixed by the rule as violated', () => {
      const npmTest = makeTrace('claude-code:npm-test', [
        user('run the tests'),
        ...shell('cd web && npm test', 'Tests 3 passed'), // 1, 2
      ]);
      const [codegen] = ruleEvidence(npmTest, [CODEGEN]);
      assert.equal(codegen.tag, 'harmful', 'the other way worked and no one objected: the rule is wrong here');
      assert.deepEqual(codegen.steps, [1]);

      const plain = makeTrace('claude-code:tz', [
        user('fix the cart date test'),
        ...shell('pnpm vitest run src/cart', 'Expected: "2026-11-03 00:00"', 1), // 1, 2
        ...shell('TZ=UTC pnpm vitest run src/cart', 'Tests 8 passed'), // 3, 4
      ]);
      const [tz] = ruleEvidence(plain, [TZ_VARIANT]);
      assert.equal(tz.tag, 'violated', 'violated wins over the helpful run at step 3');
      assert.deepEqual(tz.steps, [1, 3]);
      assert.deepEqual(tz.fix, { ran: 'pnpm vitest', then: 'TZ=UTC pnpm vitest run src/cart' });

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

  describe('the sign of the evidence', () => {
    it('1. did what the rule says and it worked: helpful (uv)', () => {
      const trace = makeTrace('codex:uv-ok', [
        user('set up the project'),
        ...shell('uv sync', 'Resolved 42 packages'), // 1, 2
        ...shell('uv run pytest', '12 passed'),
      ]);
      const [evidence] = ruleEvidence(trace, [UV_SYNC]);
      assert.equal(evidence.tag, 'helpful');
      assert.deepEqual(evidence.steps, [1]);
    });

    it('2. did it and the user overruled it with another command for the job: harmful, with the correction (go)', () => {
      const trace = makeTrace('codex:make-overruled', [
        user('fix the failing parser test'),
        ...shell('make test', 'ok  	example.com/shop	0.2s'), // 1, 2
        assistant('The tests pass.'), // 3
        user('No, run `go test ./...` instead: make test skips the parser package.'), // 4
        ...shell('go test ./...', 'FAIL example.com/shop/parser', 1), // 5, 6
      ]);
      const [evidence] = ruleEvidence(trace, [MAKE_TEST]);
      assert.equal(evidence.tag, 'harmful');
      assert.deepEqual(evidence.steps, [1, 4]);
      assert.equal(evidence.correction, 'No, run `go test ./...` instead: make test skips the parser package.');
    });

    it('3. did otherwise, it failed, then the rule’s way worked: violated, with what was run and what fixed it (uv, pnpm)', () => {
      const pip = makeTrace('codex:pip-then-uv', [
        user('install the dependencies'),
        ...shell('pip install -r requirements.txt', 'error: externally-managed-environment', 1), // 1, 2
        ...shell('uv sync', 'Resolved 42 packages'), // 3, 4
      ]);
      const [uv] = ruleEvidence(pip, [UV_SYNC]);
      assert.equal(uv.tag, 'violated');
      assert.deepEqual(uv.steps, [1, 3]);
      assert.deepEqual(uv.fix, { ran: 'pip install', then: 'uv sync' });
      assert.equal(
        uv.reason,
        "the session ran `pip install -r requirements.txt`, which the rule rules out, then the rule's `uv sync` passed",
      );

      const npm = makeTrace('claude-code:npm-then-pnpm', [
        user('install the dependencies'),
        ...shell('npm install', 'npm ERR! code ERESOLVE', 1), // 1, 2
        ...shell('pnpm install', 'Done in 2.1s'), // 3, 4
      ]);
      const [pnpm] = ruleEvidence(npm, [USE_PNPM]);
      assert.equal(pnpm.tag, 'violated');
      assert.deepEqual(
        pnpm.fix,
        { ran: 'npm install', then: 'pnpm install' },
        'a bare tool takes the job from what passed',
      );
    });

    it('4. did otherwise because the user asked, before or right after: harmful, never violated (pnpm, pip)', () => {
      const overruled = makeTrace('codex:pnpm-asked', [
        user('add lodash-es'),
        ...shell('npm install lodash-es', 'npm ERR! lockfile pnpm-lock.yaml does not match', 1), // 1, 2
        user('No, we use pnpm here: run `pnpm add lodash-es`.'), // 3
        ...shell('pnpm add lodash-es', 'Done'), // 4, 5
        user('thanks'),
      ]);
      const [npm] = ruleEvidence(overruled, [NPM_INSTALL]);
      assert.equal(npm.tag, 'harmful', 'the rule’s command failed and the user asked for the other way');
      assert.deepEqual(npm.steps, [3, 4]);
      assert.equal(npm.reason, 'the user asked for `pnpm add lodash-es`, which the rule rules out');
      assert.equal(npm.correction, 'No, we use pnpm here: run `pnpm add lodash-es`.');

      const askedFirst = makeTrace('codex:pip-asked', [
        user('install requests with pip, this container has no uv'), // 0
        ...shell('pip install requests', 'Successfully installed requests-2.32.3'), // 1, 2
      ]);
      const [uv] = ruleEvidence(askedFirst, [UV_SYNC]);
      assert.equal(uv.tag, 'harmful');
      assert.deepEqual(uv.steps, [0, 1]);
    });

    it('4. did otherwise and it worked with no correction: harmful; a command for no job of the rule says nothing', () => {
      const worked = makeTrace('claude-code:npm-worked', [
        user('install the dependencies and build'),
        ...shell('npm install', 'added 812 packages'), // 1, 2
        ...shell('npm run build', 'built in 3.2s'), // 3, 4
        user('great'),
      ]);
      const [pnpm] = ruleEvidence(worked, [USE_PNPM]);
      assert.equal(pnpm.tag, 'harmful');
      assert.deepEqual(pnpm.steps, [1]);

      const looked = makeTrace('claude-code:npm-view', [...shell('npm view zod version', '3.23.8')]);
      assert.equal(ruleEvidence(looked, [USE_PNPM])[0].tag, 'violated');
    });

    it('4. did otherwise, failed, then did otherwise again and it worked unopposed: harmful, not violated (npm)', () => {
      const trace = makeTrace('claude-code:npm-recovered', [
        user('install the dependencies'),
        ...shell('npm install', 'npm ERR! ERESOLVE could not resolve', 1), // 1, 2
        ...shell('npm install --legacy-peer-deps', 'added 812 packages'), // 3, 4
        user('great, thanks'),
      ]);
      const [evidence] = ruleEvidence(trace, [USE_PNPM]);
      assert.equal(evidence.tag, 'harmful');
      assert.deepEqual(evidence.steps, [3]);
      // the same failure answered by the user asking for the rule's way is the rule being right
      const answered = makeTrace('claude-code:npm-answered', [
        user('install the dependencies'),
        ...shell('npm install', 'npm ERR! ERESOLVE could not resolve', 1), // 1, 2
        ...shell('npm install --legacy-peer-deps', 'added 812 packages'), // 3, 4
        user('No, use pnpm here.'), // 5
      ]);
      assert.equal(ruleEvidence(answered, [USE_PNPM])[0].tag, 'violated');
    });

    it('follows the user’s last word: asked for the rule’s way before, the other way working is no verdict against it', () => {
      const disobeyed = makeTrace('claude-code:asked-pnpm', [
        user('add zod with pnpm'), // 0
        ...shell('npm install zod', 'added 1 package'), // 1, 2
      ]);
      const [evidence] = ruleEvidence(disobeyed, [USE_PNPM]);
      assert.equal(evidence.tag, 'violated');
      assert.deepEqual(evidence.steps, [0, 1]);
      // asked for npm first, then took it back: the rule's side
      const retracted = makeTrace('claude-code:retracted', [
        user('install zod with npm'), // 0
        ...shell('npm install zod', 'added 1 package'), // 1, 2
        user('Actually no, we use pnpm here.'), // 3
      ]);
      assert.equal(ruleEvidence(retracted, [USE_PNPM])[0].tag, 'violated');
    });

    it('3. skipped the rule’s command, a check of its job (or the command it must come before) failed, then it fixed that: violated', () => {
      const format: RuleInPlay = { id: 'conv-00011', content: 'Format with `pnpm format` after editing files.' };
      const skipped = makeTrace('codex:format-skipped', [
        user('add the bank transfer option'),
        edit('src/checkout/PaymentOptions.tsx'), // 1
        ...shell('pnpm format:check', '[warn] src/checkout/PaymentOptions.tsx', 1), // 2, 3
        ...shell('pnpm format', 'src/checkout/PaymentOptions.tsx 41ms'), // 4, 5
        ...shell('pnpm format:check', 'All matched files use Prettier code style!'), // 6, 7
      ]);
      const [late] = ruleEvidence(skipped, [format]);
      assert.equal(late.tag, 'violated');
      assert.deepEqual(late.steps, [2, 4]);
      assert.equal(late.fix, undefined, 'nothing was run instead: no rewording comes of it');
      const followed = makeTrace('codex:format-followed', [
        edit('src/checkout/PaymentOptions.tsx'),
        ...shell('pnpm format', 'src/checkout/PaymentOptions.tsx 41ms'),
        ...shell('pnpm format:check', 'All matched files use Prettier code style!'),
      ]);
      assert.equal(ruleEvidence(followed, [format])[0].tag, 'helpful');

      const order = makeTrace('codex:generate-late', [
        user('fix the cart tests'),
        ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1), // 1, 2
        ...shell('pnpm db:generate', 'Generated Prisma Client'), // 3, 4
        ...shell('pnpm test', 'Tests 42 passed'), // 5, 6
      ]);
      const [codegen] = ruleEvidence(order, [CODEGEN]);
      assert.equal(codegen.tag, 'violated');
      assert.deepEqual(codegen.steps, [1, 3]);

      const ruff: RuleInPlay = { id: 'conv-00012', content: 'Run `uv run ruff check --fix` before you commit.' };
      const hook = makeTrace('codex:commit-hook', [
        edit('app/routes/invoices.py'), // 0
        ...shell('git commit -am "Rename cust"', 'ruff....Failed\n- hook id: ruff', 1), // 1, 2
        ...shell('uv run ruff check --fix', 'Found 1 error (1 fixed, 0 remaining).'), // 3, 4
        ...shell('git commit -am "Rename cust"', '[main 4f1c2d9] Rename cust'), // 5, 6
      ]);
      assert.deepEqual(ruleEvidence(hook, [ruff])[0].steps, [1, 3]);
      assert.equal(ruleEvidence(hook, [ruff])[0].tag, 'violated');
    });

    it('5. a command the rule calls broken, or names not to run, failing: helpful — it predicted it (npm, cargo)', () => {
      assert.deepEqual(ruleCommands(BROKEN_DEFAULT.content), {
        prescribed: ['npm run test:ci'],
        forbidden: ['npm test'],
        broken: ['npm test'],
      });
      const trace = makeTrace('claude-code:default-broken', [
        user('run the tests'),
        ...shell('npm test', 'Error: no test specified', 1), // 1, 2
        ...shell('npm run test:ci', 'Tests 42 passed'), // 3, 4
      ]);
      const [broken] = ruleEvidence(trace, [BROKEN_DEFAULT]);
      assert.equal(broken.tag, 'helpful');
      assert.deepEqual(broken.steps, [1, 2]);
      assert.equal(broken.reason, 'the session ran `npm test`, which the rule calls broken, and it failed');

      const cargo = makeTrace('codex:cargo-test', [
        user('run the tests'),
        ...shell('cargo test', 'error: test failed, to rerun pass `--lib`', 1), // 1, 2
      ]);
      const [named] = ruleEvidence(cargo, [NEXTEST]);
      assert.equal(named.tag, 'helpful');
      assert.equal(named.reason, 'the session ran `cargo test`, which the rule says not to run, and it failed');
      // and when the rule's own command then passed, the rule was right but broken: violated
      const fixed = makeTrace('codex:cargo-fixed', [
        ...shell('cargo test', 'error: test failed', 1),
        ...shell('cargo nextest run', '42 tests run: 42 passed'),
      ]);
      assert.deepEqual(ruleEvidence(fixed, [NEXTEST])[0].fix, { ran: 'cargo test', then: 'cargo nextest run' });
    });

    it('3. skipped editing the file a rule names, a check naming it failed, then the edit fixed it: violated (cargo)', () => {
      const rule: RuleInPlay = {
        id: 'conv-00014',
        content: 'Add a `CHANGELOG.md` entry under `## Unreleased` for every user-facing change.',
      };
      const changelog = (first: 'edit' | 'check') =>
        makeTrace(`codex:changelog-${first}`, [
          user('accept gzip-compressed layer data'),
          edit('src/loader.rs'), // 1
          ...(first === 'check'
            ? [
                ...shell(
                  'cargo xtask changelog-check',
                  'changelog-check: no entry under `## Unreleased` in CHANGELOG.md',
                  1,
                ),
                edit('CHANGELOG.md'),
              ]
            : [edit('CHANGELOG.md'), ...shell('cargo xtask changelog-check', 'changelog-check: 1 entry')]),
          ...shell('cargo xtask changelog-check', 'changelog-check: 1 entry under `## Unreleased`'),
        ]);
      const [late] = ruleEvidence(changelog('check'), [rule]);
      assert.equal(late.tag, 'violated');
      assert.deepEqual(late.steps, [2, 4]);
      assert.equal(ruleEvidence(changelog('edit'), [rule])[0].tag, 'neutral', 'an edit alone says nothing');
    });

    it('reads a placeholder inside a path as any such path (cargo)', () => {
      const rule: RuleInPlay = {
        id: 'bat-00013',
        content: 'Format a file with `rustfmt src/<file>.rs` after editing it.',
      };
      assert.deepEqual(ruleCommands(rule.content).prescribed, ['rustfmt src/<file>.rs']);
      const trace = makeTrace('codex:rustfmt', [
        user('add an async loader'),
        edit('src/loader.rs'), // 1
        ...shell('rustfmt src/loader.rs', "error[E0670]: 'async fn' is not permitted in Rust 2015", 1), // 2, 3
        user("Don't run rustfmt on single files, it defaults to edition 2015. Use cargo fmt --all."), // 4
        ...shell('cargo fmt --all', ''),
      ]);
      const [evidence] = ruleEvidence(trace, [rule]);
      assert.equal(evidence.tag, 'harmful');
      assert.deepEqual(evidence.steps, [2, 4]);
    });

    it('6. a prescribed command that failed and that the user then overruled gains no helpful (pnpm)', () => {
      const trace = makeTrace('claude-code:install-overruled', [
        user('add zod'),
        ...shell('npm install zod', 'npm ERR! Cannot read properties of null', 1), // 1, 2
        assistant('npm failed; retrying.'),
        ...shell('npm install zod', 'npm ERR! Cannot read properties of null', 1), // 4, 5
        user('Stop, this is a pnpm workspace. Use `pnpm add zod`.'), // 6
        ...shell('pnpm add zod', 'Done'), // 7, 8
        ...shell('pnpm test', 'Tests 42 passed'), // 9, 10
        user('thanks'),
      ]);
      const [evidence] = ruleEvidence(trace, [NPM_INSTALL]);
      assert.equal(evidence.tag, 'harmful');
      assert.equal(evidence.correction, 'Stop, this is a pnpm workspace. Use `pnpm add zod`.');
    });

    it('reads a failure the rule makes conditional as no claim that the command is broken', () => {
      assert.deepEqual(ruleCommands('`pnpm test` fails until you run `pnpm db:generate`.').broken, []);
      assert.deepEqual(ruleCommands('`make check` hangs; run `make test` instead.').broken, ['make check']);
      // a failure the rule describes ("when `x` fails, …") is neither a command to run nor one called broken
      assert.deepEqual(
        ruleCommands('When `pnpm test` fails with `Error: no test specified`, `pnpm run test:ci` resolves it.'),
        { prescribed: ['pnpm run test:ci'], forbidden: [], broken: [] },
      );
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
