import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceStore } from '../../../../src/core/store/traceStore';
import type { Trace } from '../../../../src/core/trace/model';
import { assistant, makeTrace, shell, user } from '../../../../testing/traces';
import { dryLearn } from '../../../../testing/dryLearn';
import { tempDir } from '../../../../testing/tmp';

async function learnIn(files: Record<string, string>, traces: Trace[]) {
  const root = tempDir('combee-conflicts-');
  const workspace = join(root, 'ws');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  mkdirSync(workspace, { recursive: true });
  const store = new TraceStore(join(root, 'store'));
  for (const trace of traces) await store.saveTrace({ ...trace, cwd: workspace });
  const result = await dryLearn(store, workspace);
  const playbook = result.proposal?.files.find((f) => f.path.endsWith('playbook.md'))?.after ?? '';
  return { result, playbook, rules: result.proposal?.rules ?? [] };
}

/** The agent installs with npm and the user overrules it: pnpm here, never npm. */
const overruled = (id: string) =>
  makeTrace(id, [
    user('add lodash to the cart module'),
    ...shell('npm install lodash-es', 'added 1 package'),
    user('No — this repo uses pnpm, never npm. Use pnpm add.'),
    assistant('Switching to pnpm.'),
    ...shell('pnpm add lodash-es', 'done'),
  ]);

describe('no contradiction leaves a proposal', () => {
  it('removes a playbook rule the user overruled, citing the sessions that overruled it', async () => {
    const { result, playbook, rules } = await learnIn(
      {
        '.combee/playbook.md':
          '# Playbook\n\n## Setup\n[setu-00001] helpful=2 harmful=0 :: Install dependencies with `npm install`.\n',
      },
      [overruled('claude-code:u1')],
    );
    assert.doesNotMatch(playbook, /Install dependencies with `npm install`/);
    assert.match(playbook, /This repo uses pnpm, never npm\. Use pnpm add\./);
    const removal = rules.find((r) => r.id === 'setu-00001');
    assert.equal(removal?.op, 'REMOVE');
    const op = result.proposal?.ops.find((o) => o.ruleId === 'setu-00001')?.op;
    assert.match(
      op?.op === 'REMOVE' ? op.reason : '',
      /^overruled by \[conv-\d{5}\]: one says to run `(?:npm install|pnpm add)`, the other rules it out$/,
    );
    assert.deepEqual(
      removal?.support.map((s) => s.traceId),
      ['claude-code:u1'],
    );
    assert.ok(
      result.record?.nodes.some((n) => n.id.endsWith(':conflicts')),
      'the tree shows the removal',
    );
  });

  it('withdraws a new rule that contradicts a better-evidenced new one, and says so', async () => {
    const { result, playbook } = await learnIn({}, [
      overruled('claude-code:u2'),
      makeTrace('claude-code:t2', [
        user('run the tests'),
        // a wrong way first, so the session names the way that worked
        ...shell('npm run tests', 'npm ERR! Missing script: "tests"', 1),
        ...shell('npm test', 'Tests 12 passed'),
      ]),
    ]);
    assert.match(playbook, /This repo uses pnpm, never npm/);
    assert.doesNotMatch(playbook, /Run the tests with `npm test`/);
    assert.ok(
      result.record?.warnings.some((w) => /left out: contradicts \[conv-\d{5}\], which is better evidenced/.test(w)),
      JSON.stringify(result.record?.warnings),
    );
  });

  it("keeps a rule that overrules the team's own text, with a note naming the line; Combee does not edit it", async () => {
    const agents = '# Agents\n\nInstall dependencies with `npm install`.\n';
    const { result, rules } = await learnIn({ 'AGENTS.md': agents }, [overruled('claude-code:u3')]);
    const rule = rules.find((r) => r.content === 'This repo uses pnpm, never npm. Use pnpm add.');
    assert.ok(
      rule?.notes?.some((n) =>
        n.startsWith(`contradicts the team's own text in AGENTS.md ("Install dependencies with \`npm install\`.")`),
      ),
      JSON.stringify(rule?.notes),
    );
    const agentsFile = result.proposal?.files.find((f) => f.path === 'AGENTS.md');
    assert.ok(agentsFile?.after.startsWith(agents), 'the team text is left as it was');
  });

  it("withdraws a rule that only worked once where the team's own text says otherwise", async () => {
    const { playbook } = await learnIn({ 'AGENTS.md': '# Agents\n\nThis repo uses pnpm: never npm.\n' }, [
      makeTrace('claude-code:t4', [user('run the tests'), ...shell('npm test', 'Tests 12 passed')]),
    ]);
    assert.doesNotMatch(playbook, /npm test/);
  });

  it('never removes a pinned rule for a new one', async () => {
    const { result, playbook, rules } = await learnIn(
      {
        '.combee/playbook.md':
          '# Playbook\n\n## Setup\n[setu-00001] helpful=0 harmful=0 :: Install dependencies with `npm install`.\n\n<!-- combee:marks\npinned [setu-00001] kept by the team\n-->\n',
      },
      [overruled('claude-code:u5')],
    );
    assert.ok(
      (result.record?.warnings ?? []).some((w) => /^rule \S+ left out: contradicts \[setu-00001\]/.test(w)),
      (result.record?.warnings ?? []).join('\n'),
    );
    assert.deepEqual(
      rules.filter((r) => r.id === 'setu-00001'),
      [],
      'the pinned rule is neither removed nor replaced',
    );
    assert.doesNotMatch(playbook, /This repo uses pnpm, never npm/);
  });

  it('merges a new rule that says what a playbook rule says into it, rewording it when the new one says more', async () => {
    const tz = (id: string) =>
      makeTrace(id, [
        user('fix the date test'),
        ...shell('pnpm test', "AssertionError: expected '2026-11-04' to be '2026-11-05'", 1),
        ...shell('TZ=UTC pnpm test', 'Tests 40 passed'),
      ]);
    const { playbook, rules } = await learnIn(
      {
        '.combee/playbook.md':
          '# Playbook\n\n## Test\n[test-00001] helpful=1 harmful=0 :: Run the tests with `TZ=UTC pnpm test`.\n',
      },
      [tz('claude-code:z1'), tz('codex:z2')],
    );
    assert.equal((playbook.match(/TZ=UTC pnpm test/g) ?? []).length, 1, playbook);
    assert.match(playbook, /^\[test-00001\] helpful=1 harmful=0 :: Run `TZ=UTC pnpm test`, not `pnpm test`/m);
    const update = rules.find((r) => r.id === 'test-00001');
    assert.equal(update?.op, 'UPDATE');
    assert.deepEqual(update?.support.map((s) => s.traceId).sort(), ['claude-code:z1', 'codex:z2']);
  });

  it("leaves out a new rule the team's own text already states", async () => {
    const { playbook } = await learnIn({ 'AGENTS.md': '# Agents\n\n- Typecheck: `pnpm typecheck`\n' }, [
      makeTrace('claude-code:y1', [user('check types'), ...shell('pnpm typecheck', 'ok')]),
    ]);
    assert.doesNotMatch(playbook, /pnpm typecheck/);
  });

  it("leaves out a new rule a repository's skill already states, read from the agents' skill folders", async () => {
    // a wrong way first, in two sessions, so the run learns the way that worked
    const checked = () =>
      ['claude-code:k1', 'codex:k2'].map((id) =>
        makeTrace(id, [
          user('check types'),
          ...shell('pnpm tsc', 'ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL Command "tsc" not found', 1),
          ...shell('pnpm typecheck', 'ok'),
        ]),
      );
    const skill =
      '---\nname: verify\ndescription: Checks a change.\n---\n1. Types:\n   ```bash\n   pnpm typecheck\n   ```\n';
    const without = await learnIn({}, checked());
    assert.match(without.playbook, /pnpm typecheck/);
    const { playbook } = await learnIn({ '.claude/skills/verify/SKILL.md': skill }, checked());
    assert.doesNotMatch(playbook, /pnpm typecheck/);
  });

  it('prefers a refinement two sessions needed over the plain form, and not one that a single session needed', async () => {
    const tz = (id: string) =>
      makeTrace(id, [
        ...shell('pnpm test', "AssertionError: expected '2026-11-04' to be '2026-11-05'", 1),
        ...shell('TZ=UTC pnpm test', 'Tests 40 passed'),
      ]);
    const plain = (id: string) =>
      makeTrace(id, [
        user('run the tests'),
        ...shell('pnpm tests', 'ERR_PNPM_NO_SCRIPT  Missing script: tests', 1),
        ...shell('pnpm test', 'Tests 40 passed'),
      ]);
    const twice = await learnIn({}, [
      tz('claude-code:r1'),
      tz('codex:r2'),
      plain('claude-code:p1'),
      plain('codex:p2'),
      plain('codex:p3'),
    ]);
    assert.match(twice.playbook, /Run `TZ=UTC pnpm test`, not `pnpm test`/);
    assert.doesNotMatch(twice.playbook, /Run the tests with `pnpm test`\./);
    const once = await learnIn({}, [tz('claude-code:r3'), plain('claude-code:p4'), plain('codex:p5')]);
    assert.match(once.playbook, /Run the tests with `pnpm test`\./);
    assert.doesNotMatch(once.playbook, /TZ=UTC/);
  });

  it('screens a removal by the rule that overrules it: clean when that rule is', async () => {
    const { rules } = await learnIn(
      {
        '.combee/playbook.md':
          '# Playbook\n\n## Setup\n[setu-00001] helpful=0 harmful=0 :: Install dependencies with `npm install`.\n',
      },
      [overruled('claude-code:s1')],
    );
    const removal = rules.find((r) => r.id === 'setu-00001');
    assert.equal(removal?.op, 'REMOVE');
    assert.deepEqual(removal?.flags, []);
  });

  it('a rule that loses takes no other down with it: the best evidenced are settled first', async () => {
    // many sessions where the user asks for pnpm and `npm test` still passes once: "Run the tests with `npm test`"
    // would outweigh the one session's prerequisite, but the user's word outweighs it first
    const overrule = (i: number) =>
      makeTrace(`claude-code:n${i}`, [
        user('Please update the checkout module.'),
        ...shell('pnpm proto:check', 'ok'),
        user('Use pnpm here, not npm.'),
        ...shell('npm test', 'npm error: this repository uses pnpm', 1),
        ...shell('pnpm test', 'ok'),
        ...shell('npm test', 'ok'),
      ]);
    const prereq = makeTrace('claude-code:g1', [
      user('fix the cart'),
      ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
      ...shell('pnpm db:generate', 'Generated Prisma Client'),
      ...shell('pnpm test', 'Tests 12 passed'),
    ]);
    const { playbook } = await learnIn({}, [...Array.from({ length: 6 }, (_, i) => overrule(i)), prereq]);
    assert.match(playbook, /Run `pnpm db:generate` before `pnpm test`/);
    assert.match(playbook, /Use pnpm here, not npm\./);
    assert.doesNotMatch(playbook, /with `npm test`/);
  });
});
