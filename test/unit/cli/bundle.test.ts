import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { TraceStore } from '../../../src/core/store/traceStore';
import { prerequisiteTurns, writeClaudeSession } from '../../../testing/claudeSessions';
import { capture } from '../../../testing/cliOutput';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

async function setup() {
  const root = tempDir('combee-cli-bundle-');
  const workspace = join(root, 'alice', 'acme-shop');
  mkdirSync(workspace, { recursive: true });
  const store = join(root, 'alice-store');
  const traces = new TraceStore(store);
  await traces.saveTrace(
    makeTrace('claude-code:one', [user('test it'), ...shell('pnpm test', `${workspace}/src: 3 passed`)], {
      cwd: workspace,
      endedAt: '2026-11-02T10:00:00.000Z',
    }),
  );
  await traces.saveTrace(
    makeTrace('codex:two', [user('lint')], { agent: 'codex', cwd: workspace, endedAt: '2026-11-04T10:00:00.000Z' }),
  );
  await traces.saveTrace(makeTrace('claude-code:elsewhere', [user('x')], { cwd: join(root, 'other-repo') }));
  const bobWorkspace = join(root, 'bob', 'shop');
  mkdirSync(bobWorkspace, { recursive: true });
  return { root, workspace, store, bobWorkspace, bobStore: join(root, 'bob-store') };
}

const json = (out: { stdout: string[] }) => JSON.parse(out.stdout.join('\n'));

describe('combee export --bundle / import --bundle', () => {
  it('imports every file after --bundle (a shell glob), and refuses files given without it', async () => {
    const s = await setup();
    const [a, b] = ['a.combee.gz', 'b.combee.gz'].map((name) => join(s.root, name));
    for (const [file, since] of [
      [a, '2026-11-04T00:00:00Z'],
      [b, '2026-01-01T00:00:00Z'],
    ])
      assert.equal(
        await runCli(
          ['export', '--bundle', file, '--workspace', s.workspace, '--store', s.store, '--since', since],
          capture(),
        ),
        0,
      );
    const imported = capture();
    const args = ['--workspace', s.bobWorkspace, '--store', s.bobStore, '--json'];
    assert.equal(await runCli(['import', '--bundle', a, b, ...args], imported), 0, imported.stderr.join('\n'));
    assert.deepEqual(
      json(imported).bundles.map((e: { path: string }) => e.path),
      [a, b],
      'both bundles are read, in the order given',
    );
    const loose = capture();
    assert.equal(await runCli(['import', a, ...args], loose), 2, 'bad usage');
    assert.match(loose.stderr.join('\n'), /unexpected argument\(s\): .*a\.combee\.gz \(bundles go after --bundle\)/);
  });

  it("exports the workspace's sessions and imports them into another store and workspace (--json)", async () => {
    const s = await setup();
    const file = join(s.root, 'team.combee.gz');
    const exported = capture();
    const argv = ['export', '--bundle', file, '--workspace', s.workspace, '--store', s.store];
    assert.equal(await runCli([...argv, '--author', 'alice', '--json'], exported), 0, exported.stderr.join('\n'));
    assert.deepEqual(
      { ...json(exported), bytes: 0 },
      {
        traces: 2,
        bytes: 0,
        path: file,
        redactions: 0,
        workspace: s.workspace,
        store: s.store,
        removedSignature: false,
        signWith: `ssh-keygen -Y sign -n combee-bundle -f <your key> ${file}`,
      },
    );

    const imported = capture();
    const importArgv = ['import', '--bundle', file, '--workspace', s.bobWorkspace, '--store', s.bobStore, '--json'];
    assert.equal(await runCli(importArgv, imported), 0, imported.stderr.join('\n'));
    const [entry] = json(imported).bundles;
    assert.deepEqual([entry.path, entry.imported, entry.duplicates, entry.invalid, entry.warnings], [file, 2, 0, 0, 0]);
    assert.equal(entry.bundle.exportedBy, 'alice');
    assert.equal(entry.bundle.newestSessionAt, '2026-11-04T10:00:00.000Z', 'the newest session ended then');
    const back = await new TraceStore(s.bobStore).listTraces();
    assert.deepEqual(
      back.map((t) => [t.id, t.cwd, t.contributor]),
      [
        ['claude-code:one', s.bobWorkspace, 'alice'],
        ['codex:two', s.bobWorkspace, 'alice'],
      ],
    );
    assert.ok(JSON.stringify(back).includes(`${s.bobWorkspace}/src: 3 passed`));

    const again = capture();
    assert.equal(await runCli(importArgv, again), 0);
    assert.deepEqual([json(again).bundles[0].imported, json(again).bundles[0].duplicates], [0, 2]);
  });

  it('the author defaults to COMBEE_AUTHOR; the same store exports the same bytes', async () => {
    const s = await setup();
    const [one, two] = [join(s.root, 'one.gz'), join(s.root, 'two.gz')];
    const saved = process.env.COMBEE_AUTHOR;
    process.env.COMBEE_AUTHOR = 'alice@team';
    try {
      for (const file of [one, two]) {
        const out = capture();
        assert.equal(
          await runCli(['export', '--bundle', file, '--workspace', s.workspace, '--store', s.store], out),
          0,
        );
        assert.match(out.stdout.join('\n'), /^Exported 2 session\(s\) of /);
      }
    } finally {
      if (saved === undefined) delete process.env.COMBEE_AUTHOR;
      else process.env.COMBEE_AUTHOR = saved;
    }
    assert.deepEqual(readFileSync(one), readFileSync(two));
    const imported = capture();
    await runCli(['import', '--bundle', one, '--workspace', s.bobWorkspace, '--store', s.bobStore], imported);
    assert.match(
      imported.stdout.join('\n'),
      /^Imported 2 session\(s\) from .* \(exported by alice@team \(self-declared\); newest session 2026-11-04/,
    );
  });

  it('a refused bundle is exit 1 with its reason; the other bundles and --from are still imported', async () => {
    const s = await setup();
    const good = join(s.root, 'good.gz');
    await runCli(['export', '--bundle', good, '--workspace', s.workspace, '--store', s.store], capture());
    const bytes = readFileSync(good);
    const cut = join(s.root, 'cut.gz');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 20));
    const home = join(s.root, '.claude');
    writeClaudeSession(home, '99999999-aaaa-4bbb-8ccc-000000000001', s.bobWorkspace, prerequisiteTurns());
    const out = capture();
    const argv = ['import', '--from', home, '--bundle', cut, '--bundle', good];
    assert.equal(await runCli([...argv, '--workspace', s.bobWorkspace, '--store', s.bobStore, '--json'], out), 1);
    assert.match(out.stderr.join('\n'), /bundle .*cut\.gz is refused: it is truncated/);
    const result = json(out);
    assert.equal(result.sessions, 1, 'the --from import ran');
    assert.match(result.bundles[0].error, /truncated/);
    assert.equal(result.bundles[1].imported, 2);
    assert.equal((await new TraceStore(s.bobStore).listTraces()).length, 3);
  });

  it('usage: --bundle is required for export, import needs --from or --bundle, export --help', async () => {
    const s = await setup();
    assert.equal(await runCli(['export', '--store', s.store], capture()), 2);
    assert.equal(await runCli(['export', '--bundle', join(s.root, 'x.gz'), '--since', 'soon'], capture()), 2);
    assert.equal(await runCli(['import', '--store', s.store], capture()), 2);
    assert.equal(await runCli(['import', '--bundle', join(s.root, 'missing.gz')], capture()), 2);
    const help = capture();
    assert.equal(await runCli(['export', '--help'], help), 0);
    assert.match(help.stdout.join('\n'), /^combee export --bundle <file>/);
    const all = capture();
    await runCli(['--help'], all);
    assert.match(all.stdout.join('\n'), /combee import --bundle <file>… \[--workspace <folder>\]/);
  });
});
