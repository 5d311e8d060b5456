import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { startModelServer } from '../../../testing/modelServer';
import { simulatedModel } from '../../../testing/simulatedModel';
import { tempDir } from '../../../testing/tmp';
import { withApiKey } from '../../support/apiKeyEnv';
import { capture } from '../../../testing/cliOutput';
import { WorkspaceState } from '../../../src/core/store/workspaceState';
import { learnAgainst } from '../../support/cliArgs';

async function imported(sessions: number) {
  const root = tempDir('combee-cli-honest-');
  const workspace = join(root, 'repo');
  mkdirSync(workspace);
  const home = join(root, '.claude');
  for (let i = 1; i <= sessions; i++)
    writeClaudeSession(
      home,
      `99999999-aaaa-4bbb-8ccc-${String(i).padStart(12, '0')}`,
      workspace,
      prerequisiteTurns(),
      `2026-11-0${1 + (i % 9)}T09:00:00.000Z`,
    );
  const store = join(root, 'store');
  assert.equal(await runCli(['import', '--from', home, '--store', store], capture()), 0);
  return { workspace, store };
}

describe('combee CLI: honest runs', () => {
  it('a run whose every call fails (401) says it failed (exit 1) and learns nothing, so fixing the key learns them all', async () => {
    const { workspace, store } = await imported(3);
    const server = await startModelServer({ apiKey: 'the-right-key', responder: simulatedModel });
    try {
      const args = [...learnAgainst(store, workspace, server.url), '--no-cache', '--json'];
      const failed = capture();
      assert.equal(await withApiKey('a-wrong-key', () => runCli(args, failed)), 1);
      const report = JSON.parse(failed.stdout.join('\n'));
      assert.equal(report.run.status, 'failed');
      assert.equal(report.failedSessions.length, 3);
      assert.deepEqual((await new WorkspaceState(store).loadLearned(workspace)).learned, {});
      const fixed = capture();
      assert.equal(await withApiKey('the-right-key', () => runCli(args, fixed)), 0);
      const again = JSON.parse(fixed.stdout.join('\n'));
      assert.equal(again.sessions, 3, 'the sessions of the failed run are learned now');
      assert.equal(again.run.status, 'completed');
      assert.ok(again.proposal, 'and propose their lessons');
    } finally {
      await server.close();
    }
  });

  it('a session whose learning keeps failing is left out after three runs, with the reason', async () => {
    const { workspace, store } = await imported(1);
    // 400s are not retried: the test does not wait for backoffs.
    const server = await startModelServer({
      script: [{ status: 400, raw: '{"error":{"message":"this model does not exist"}}' }],
    });
    try {
      const args = [...learnAgainst(store, workspace, server.url), '--no-cache', '--json'];
      for (let i = 1; i <= 3; i++) assert.equal(await runCli(args, capture()), 1, `run ${i}`);
      const state = await new WorkspaceState(store).loadLearned(workspace);
      assert.equal(Object.values(state.failed)[0]?.count, 3);
      const fourth = capture();
      assert.equal(await runCli(args, fourth), 0);
      const report = JSON.parse(fourth.stdout.join('\n'));
      assert.equal(report.sessions, 0);
      assert.equal(report.givenUpSessions.length, 1);
      assert.equal(report.givenUpSessions[0].reason, 'its reflection failed');
    } finally {
      await server.close();
    }
  });

  it('without --seed, a dry run and the run after it propose the same rule ids and diffs', async () => {
    const { workspace, store } = await imported(6);
    const dry = capture();
    assert.equal(
      await runCli(
        ['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--dry-run', '--json'],
        dry,
      ),
      0,
    );
    const real = capture();
    assert.equal(
      await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--json'], real),
      0,
    );
    const [a, b] = [JSON.parse(dry.stdout.join('\n')), JSON.parse(real.stdout.join('\n'))];
    assert.equal(a.run.seed, b.run.seed);
    assert.deepEqual(
      a.proposal.rules.map((r: { id: string }) => r.id),
      b.proposal.rules.map((r: { id: string }) => r.id),
    );
    assert.deepEqual(
      a.proposal.files.map((f: { diff: string }) => f.diff),
      b.proposal.files.map((f: { diff: string }) => f.diff),
    );
  });

  it('sessions older than the window are left out, and the run says so and how to include them', async () => {
    const root = tempDir('combee-cli-window-');
    const workspace = join(root, 'repo');
    mkdirSync(workspace);
    const home = join(root, '.claude');
    writeClaudeSession(
      home,
      '99999999-bbbb-4bbb-8ccc-000000000001',
      workspace,
      prerequisiteTurns(),
      '2026-09-01T09:00:00.000Z',
    );
    writeClaudeSession(
      home,
      '99999999-bbbb-4bbb-8ccc-000000000002',
      workspace,
      prerequisiteTurns(),
      '2026-11-20T09:00:00.000Z',
    );
    const store = join(root, 'store');
    await runCli(['import', '--from', home, '--store', store], capture());
    const first = capture();
    assert.equal(
      await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--json'], first),
      0,
    );
    const report = JSON.parse(first.stdout.join('\n'));
    assert.equal(report.sessions, 1, 'the default 14-day window, anchored at the newest session');
    assert.equal(report.outsideWindow, 1);
    const second = capture();
    assert.equal(
      await runCli(['learn', '--store', store, '--workspace', workspace, '--provider', 'offline'], second),
      0,
    );
    assert.match(
      second.stdout.join('\n'),
      /No new sessions .* within 14 days of its newest one: 1 older session\(s\) are left out\. Learn from them with --window-days 0\./,
    );
    const all = capture();
    assert.equal(
      await runCli(
        ['learn', '--store', store, '--workspace', workspace, '--provider', 'offline', '--window-days', '0', '--json'],
        all,
      ),
      0,
    );
    assert.equal(JSON.parse(all.stdout.join('\n')).sessions, 1);
  });
});
