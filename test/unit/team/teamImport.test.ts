import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadTeamBundleIndex, saveTeamBundleIndex } from '../../../src/core/store/teamBundleIndex';
import { TraceStore } from '../../../src/core/store/traceStore';
import { importBundle } from '../../../src/core/team/importBundle';
import { BUNDLE_READER, importTeamBundles } from '../../../src/core/team/teamImport';
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

    // rewritten with the same bytes (a checkout does that): the same bundle, not read again
    writeFileSync(alice, bytes);
    utimesSync(alice, new Date(), new Date());
    const touched = await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    assert.deepEqual(
      touched.bundles.map((b) => [b.status, b.remembered ?? false]),
      [
        ['unchanged', false],
        ['refused', true],
      ],
    );

    // changed: read again
    await writeTeamBundle(alice, 'alice', 3);
    const changed = await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    assert.deepEqual(
      changed.bundles.map((b) => [b.status, b.result?.imported, b.result?.duplicates]),
      [
        ['imported', 1, 2],
        ['refused', undefined, undefined],
      ],
    );
  });

  it('does not read a refused or failed bundle again until it changes; says why it skipped it and how to retry', async () => {
    const { workspace, team, store } = await teamFolder();
    const reads: string[] = [];
    let failing = true;
    const importOne = async (path: string) => {
      reads.push(basename(path));
      // the worker running the import died (out of memory, say): not the bundle's fault as far as is known
      if (failing && path.endsWith('alice.combee-bundle')) throw new Error('the worker thread exited (code 134)');
      return importBundle({ store, path, workspace });
    };
    const run = (retryFailed?: boolean) =>
      importTeamBundles({ store, workspace, entries: ['.combee/team'], importOne, retryFailed });

    const first = await run();
    assert.deepEqual(statuses(first), [
      ['.combee/team/alice.combee-bundle', 'failed', 'the worker thread exited (code 134)'],
      [
        '.combee/team/mallory.combee-bundle',
        'refused',
        'it is tampered or corrupted: checksum mismatch (it changed after it was written)',
      ],
    ]);
    assert.deepEqual(reads.splice(0), ['alice.combee-bundle', 'mallory.combee-bundle']);

    // the next capture: neither is read, each says it was skipped, why, and how to have it read
    const second = await run();
    assert.deepEqual(reads, []);
    assert.deepEqual(
      second.bundles.map((b) => [b.status, b.remembered]),
      [
        ['failed', true],
        ['refused', true],
      ],
    );
    assert.equal(
      second.bundles[0].note,
      'skipped: its import failed when it was read before (the worker thread exited (code 134)) and it has not changed since; run "Combee: Import Team Bundles" to read it again',
    );
    assert.match(
      second.bundles[1].note!,
      /^skipped: it was refused when it was read before \(it is tampered .*\) and has not changed since; it is read again once it changes or Combee is updated/,
    );

    // rewritten with the same bytes: still skipped
    const mallory = join(team, 'mallory.combee-bundle');
    writeFileSync(mallory, readFileSync(mallory));
    utimesSync(mallory, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    await run();
    assert.deepEqual(reads, []);

    // the user asks (the command): the failed one is tried again, the refused one waits for a change
    failing = false;
    const retried = await run(true);
    assert.deepEqual(reads.splice(0), ['alice.combee-bundle']);
    assert.deepEqual(
      retried.bundles.map((b) => [b.status, b.result?.imported ?? b.remembered]),
      [
        ['imported', 2],
        ['refused', true],
      ],
    );

    // the refused one changed (fixed by its exporter): read again
    await writeTeamBundle(mallory, 'mallory', 1);
    const fixed = await run();
    assert.deepEqual(reads.splice(0), ['mallory.combee-bundle']);
    assert.deepEqual(statuses(fixed), [
      ['.combee/team/alice.combee-bundle', 'unchanged', undefined],
      ['.combee/team/mallory.combee-bundle', 'imported', 1],
    ]);
  });

  it('a refusal remembered from another reader (an earlier Combee, other limits) is not held against the bundle', async () => {
    const { workspace, store } = await teamFolder();
    await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    const index = await loadTeamBundleIndex(store);
    const mallory = index.workspaces[workspace]['.combee/team/mallory.combee-bundle'];
    assert.equal(mallory.reader, BUNDLE_READER);
    mallory.reader = 'bundle-v1/2147483648';
    await saveTeamBundleIndex(store, index);
    const again = await importTeamBundles({ store, workspace, entries: ['.combee/team'] });
    assert.deepEqual(
      again.bundles.map((b) => [b.status, b.remembered ?? false]),
      [
        ['unchanged', false],
        ['refused', false],
      ],
    );
    assert.equal(
      (await loadTeamBundleIndex(store)).workspaces[workspace]['.combee/team/mallory.combee-bundle'].reader,
      BUNDLE_READER,
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
