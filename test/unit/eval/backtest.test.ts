import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backtest } from '../../../src/core/eval/backtest';
import { backtestMarkdown, figuresForRule } from '../../../src/core/eval/render';
import { offlineRoles } from '../../../src/core/llm/providers';
import { TraceStore } from '../../../src/core/store/traceStore';
import type { StepInput, Trace } from '../../../src/core/trace/model';
import { git, gitInstalled } from '../../../testing/gitRepo';
import { makeTrace, shell, user } from '../../../testing/traces';
import { tempDir } from '../../../testing/tmp';

const day = (n: number, hour = 10) =>
  `2026-11-${String(n).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const dated = (id: string, n: number, steps: StepInput[]): Trace =>
  makeTrace(id, steps, { startedAt: day(n, 9), endedAt: day(n) });

const prereq = (id: string, n: number) =>
  dated(id, n, [
    user('fix the cart total'),
    ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
    ...shell('pnpm db:generate', 'Generated Prisma Client'),
    ...shell('pnpm test', 'Tests 12 passed'),
  ]);
const overruled = (id: string, n: number) =>
  dated(id, n, [
    user('add lodash-es to the cart module'),
    ...shell('npm install lodash-es', 'added 1 package'),
    user('No — this repo uses pnpm, never npm. Use pnpm add.'),
    ...shell('pnpm add lodash-es', 'done'),
  ]);
const unrelated = (id: string, n: number) => dated(id, n, [user('what is in src?'), ...shell('ls src', 'cart.ts')]);

async function workspaceWith(traces: Trace[]) {
  const root = tempDir('combee-backtest-');
  const workspace = join(root, 'acme-shop');
  mkdirSync(workspace);
  const store = new TraceStore(join(root, 'store'));
  for (const trace of traces) await store.saveTrace({ ...trace, cwd: workspace });
  return { root, workspace, store };
}

const run = (store: TraceStore, workspace: string, extra: Partial<Parameters<typeof backtest>[0]> = {}) => {
  const roles = offlineRoles();
  return backtest({ store, workspace, ...roles, provider: roles.info, ...extra });
};

describe('backtest', () => {
  const sessions = () => [
    prereq('claude-code:e1', 1),
    overruled('claude-code:e2', 2),
    unrelated('claude-code:e3', 3),
    prereq('claude-code:l1', 4),
    overruled('claude-code:l2', 5),
    unrelated('claude-code:l3', 6),
  ];

  it('learns from the earlier half and counts the later half’s mistakes its rules would have prevented', async () => {
    const { workspace, store } = await workspaceWith(sessions());
    const report = await run(store, workspace);
    assert.deepEqual(report.split, { ratio: 0.5 });
    assert.deepEqual(report.earlier, { sessions: 3, from: day(1), to: day(3) });
    assert.deepEqual(report.later, { sessions: 3, from: day(4), to: day(6) });
    assert.equal(report.learnStatus, 'completed');
    assert.deepEqual(report.playbook.source, { kind: 'none' });
    const prereqRule = report.rules.find((r) => r.content.includes('pnpm db:generate'));
    const pnpmRule = report.rules.find((r) => r.content.includes('never npm'));
    assert.ok(prereqRule && pnpmRule, JSON.stringify(report.rules));
    assert.deepEqual(prereqRule.prevented, ['claude-code:l1']);
    assert.deepEqual(pnpmRule.prevented, ['claude-code:l2']);
    assert.equal(report.totals.mistakes, 2, JSON.stringify(report.mistakes));
    assert.equal(report.totals.prevented, 2);
    assert.equal(report.totals.misleadingRules, 0);
    assert.match(
      report.summary,
      /^would have prevented 2 of 2 mistakes in the later sessions; 0 rules would have misled 0 sessions$/,
    );
    const figures = figuresForRule(report, { content: pnpmRule.content });
    assert.match(figures?.line ?? '', /prevented 1 · misled 0 · agreed \d · untouched \d/);
    assert.equal(figuresForRule(report, { content: 'Never deploy on Fridays.' }), undefined);
  });

  it('is deterministic and writes nothing: not the store’s workspace state, not the workspace', async () => {
    const { workspace, store } = await workspaceWith(sessions());
    const before = { store: readdirSync(store.dir).sort(), workspace: readdirSync(workspace) };
    const first = JSON.stringify(await run(store, workspace, { seed: 7 }));
    const second = JSON.stringify(await run(store, workspace, { seed: 7 }));
    assert.equal(first, second);
    assert.deepEqual(readdirSync(store.dir).sort(), before.store);
    assert.deepEqual(readdirSync(workspace), before.workspace);
    assert.equal(JSON.parse(first).seed, 7);
    // another store with the same sessions, listed in another order, gives the same bytes
    const again = await workspaceWith([...sessions()].reverse());
    const moved = JSON.stringify(await run(again.store, again.workspace, { seed: 7 }));
    assert.equal(moved.replaceAll(again.workspace, '<ws>'), first.replaceAll(workspace, '<ws>'));
  });

  it('cuts at a date, and with nothing earlier learns nothing and says so', async () => {
    const { workspace, store } = await workspaceWith(sessions());
    const late = await run(store, workspace, { split: { at: day(5, 0) } });
    assert.equal(late.earlier.sessions, 4);
    assert.equal(late.later.sessions, 2);
    const none = await run(store, workspace, { split: { at: day(1, 0) } });
    assert.equal(none.rules.length, 0);
    assert.equal(none.learnStatus, 'nothing to learn');
    assert.match(none.summary, /^the earlier sessions taught no rule; the later sessions hold 4 mistakes$/);
  });

  it('renders every rule as a row of a Markdown table, its text escaped and its code spans as code', async () => {
    const { workspace, store } = await workspaceWith(sessions());
    const report = await run(store, workspace);
    const page = backtestMarkdown(report);
    assert.match(page, /^# Combee backtest\n\n\*\*Would have prevented 2 of 2 mistakes/);
    for (const rule of report.rules) assert.ok(page.includes(`| ${rule.id.replace('-', '\\-')} |`), rule.id);
    assert.ok(page.includes('`pnpm db:generate`'), 'a command the rule quotes is shown as code');
    assert.ok(!page.includes('\\`'), 'no literal backtick');
  });

  (gitInstalled() ? it : it.skip)(
    'starts from the playbook as committed before the earlier sessions, not today’s',
    async () => {
      const { workspace, store } = await workspaceWith(sessions());
      git(workspace, ['init', '-q']);
      const playbook = (rule: string) => `# Playbook\n\n## Test\n[test-00001] helpful=0 harmful=0 :: ${rule}\n`;
      mkdirSync(join(workspace, '.combee'));
      writeFileSync(join(workspace, '.combee/playbook.md'), playbook('Keep money in integer cents.'));
      git(workspace, ['add', '.']);
      git(workspace, ['commit', '-qm', 'team rules'], '2026-10-31T12:00:00Z');
      // later, the prerequisite rule was accepted and committed: it must not hide the lesson from the backtest
      writeFileSync(
        join(workspace, '.combee/playbook.md'),
        playbook('Run `pnpm db:generate` before `pnpm test`: without it `pnpm test` fails.'),
      );
      git(workspace, ['commit', '-qam', 'accepted'], '2026-11-07T12:00:00Z');
      const report = await run(store, workspace);
      assert.equal(report.playbook.source.kind, 'commit');
      assert.equal(report.playbook.source.kind === 'commit' && report.playbook.source.at, '2026-10-31T12:00:00.000Z');
      assert.ok(report.rules.some((r) => r.content.includes('pnpm db:generate')));
      assert.ok(!report.rules.some((r) => r.id === 'test-00001'), 'a rule already there is not counted as learned');
    },
  );
});
