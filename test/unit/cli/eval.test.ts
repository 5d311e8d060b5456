import assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { TraceStore } from '../../../src/core/store/traceStore';
import { makeTrace, shell, user } from '../../../testing/traces';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';

async function setup() {
  const root = tempDir('combee-cli-eval-');
  const workspace = join(root, 'acme-shop');
  mkdirSync(workspace);
  const store = new TraceStore(join(root, 'store'));
  const prereq = (id: string, day: number) =>
    makeTrace(
      id,
      [
        user('fix the cart total'),
        ...shell('pnpm test', "Error: Cannot find module '.prisma/client/default'", 1),
        ...shell('pnpm db:generate', 'Generated Prisma Client'),
        ...shell('pnpm test', 'Tests 12 passed'),
      ],
      { cwd: workspace, startedAt: `2026-11-0${day}T09:00:00Z`, endedAt: `2026-11-0${day}T10:00:00Z` },
    );
  for (const [i, id] of ['claude-code:a', 'claude-code:b', 'claude-code:c', 'claude-code:d'].entries())
    await store.saveTrace(prereq(id, i + 1));
  return { workspace, store: store.dir };
}

describe('combee eval', () => {
  it('--json prints the report: the split, each rule’s figures and the totals; the same bytes twice', async () => {
    const { workspace, store } = await setup();
    const argv = ['eval', '--workspace', workspace, '--store', store, '--json'];
    const out = capture();
    assert.equal(await runCli(argv, out), 0, out.stderr.join('\n'));
    const report = JSON.parse(out.stdout.join('\n'));
    assert.deepEqual(report.split, { ratio: 0.5 });
    assert.equal(report.earlier.sessions, 2);
    assert.equal(report.later.sessions, 2);
    assert.equal(report.provider, 'offline');
    const rule = report.rules.find((r: { content: string }) => r.content.includes('pnpm db:generate'));
    assert.deepEqual(rule.prevented, ['claude-code:c', 'claude-code:d']);
    for (const key of ['id', 'content', 'prevented', 'misled', 'agreed', 'untouched']) assert.ok(key in rule, key);
    assert.equal(report.totals.mistakes, 2);
    assert.equal(report.totals.prevented, 2);
    const again = capture();
    await runCli(argv, again);
    assert.equal(again.stdout.join('\n'), out.stdout.join('\n'));
    assert.deepEqual(readdirSync(workspace), [], 'nothing written to the workspace');
  });

  it('prints the summary and a line per rule; --ratio and --split choose the cut', async () => {
    const { workspace, store } = await setup();
    const out = capture();
    assert.equal(await runCli(['eval', '--workspace', workspace, '--store', store, '--ratio', '0.25'], out), 0);
    const text = out.stdout.join('\n');
    assert.match(
      text,
      /^would have prevented 3 of 3 mistakes in the later sessions; 0 rules would have misled 0 sessions\n/,
    );
    assert.match(text, /Learned from 1 earlier session .* replayed over 3 later sessions/);
    assert.match(text, /\n\[test-\d{5}\] prevented 3 · misled 0 · agreed 0 · untouched 0 · Run `pnpm db:generate`/);
    const byDate = capture();
    await runCli(['eval', '--workspace', workspace, '--store', store, '--split', '2026-11-04', '--json'], byDate);
    assert.equal(JSON.parse(byDate.stdout.join('\n')).later.sessions, 1);
  });

  it('bad usage exits 2: both cuts, a ratio outside (0, 1), a date that is none, an unknown provider', async () => {
    const { workspace, store } = await setup();
    for (const extra of [
      ['--split', '2026-11-02', '--ratio', '0.5'],
      ['--ratio', '1.5'],
      ['--split', 'tomorrow'],
      ['--provider', 'magic'],
    ]) {
      const out = capture();
      assert.equal(
        await runCli(['eval', '--workspace', workspace, '--store', store, ...extra], out),
        2,
        extra.join(' '),
      );
    }
    const help = capture();
    assert.equal(await runCli(['eval', '--help'], help), 0);
    assert.match(help.stdout.join('\n'), /^combee eval /);
  });
});
