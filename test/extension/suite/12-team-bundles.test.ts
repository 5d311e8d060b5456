// Team bundles as a source: the bundles committed in .combee/team are imported with their contributor, a tampered one
// is refused and named, and the repository's own settings cannot point the import outside the workspace.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CombeeApi } from '../../../src/extension/extension';
import { activate, run, sessionsViewItems, workspaceFolder } from './combee';
import { writeTamperedCopy, writeTeamBundle } from './teamBundles';

const workspace = () => workspaceFolder().uri.fsPath;
const team = () => join(workspace(), '.combee', 'team');
const config = () => vscode.workspace.getConfiguration('combee');

const EVE = ['e0e00000-0000-4000-8000-0000000000e1'];
const ALICE = ['a11ce000-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000002'];

async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('team bundles', () => {
  let api: CombeeApi;
  let aliceIds: string[];

  before(async () => {
    api = await activate();
    mkdirSync(team(), { recursive: true });
    aliceIds = writeTeamBundle(join(team(), 'alice.combee-bundle'), 'alice', ALICE);
    // Mallory's "bundle": Alice's with the sessions changed after it was written
    writeTamperedCopy(
      join(team(), 'alice.combee-bundle'),
      join(team(), 'mallory.combee-bundle'),
      'a11ce000-',
      'ba11ad00-',
    );
  });

  after(() => {
    rmSync(join(workspace(), '.combee', 'team'), { recursive: true, force: true });
  });

  it("Import Team Bundles puts Alice's sessions in the store with her as contributor, and refuses a tampered bundle", async function () {
    this.timeout(60_000);
    const summary = await run('combee.importTeamBundles');
    assert.equal(summary.restricted, false);
    const byName = new Map(summary.bundles.map((b) => [b.bundle, b]));
    const alice = byName.get('.combee/team/alice.combee-bundle');
    // a capture (the Sessions view opening) may have imported it a moment before
    assert.ok(alice && ['imported', 'unchanged'].includes(alice.status), JSON.stringify(summary));
    if (alice.status === 'imported') assert.equal(alice.result!.bundle.exportedBy, 'alice');
    const mallory = byName.get('.combee/team/mallory.combee-bundle');
    assert.equal(mallory?.status, 'refused', JSON.stringify(summary));
    assert.match(mallory.why!, /checksum mismatch/);

    const ids = await api.sessionIds();
    for (const id of aliceIds) assert.ok(ids.includes(id), `${id} is stored`);
    assert.ok(!ids.some((id) => id.includes('ba11ad00-')), 'nothing of the tampered bundle is stored');

    // the Sessions view lists them, saying whose they are
    const nodes = await sessionsViewItems();
    for (const id of aliceIds) {
      const node = nodes.find((n) => n.id === id);
      assert.ok(node, `${id} is in the Sessions view`);
      assert.match(node.description ?? '', /^claude-code · alice · /);
      assert.match(node.tooltip ?? '', /from alice \(a team bundle; the name is self-declared\)/);
    }
  });

  it('reads an unchanged bundle no more, and says a refused one is still refused', async () => {
    const summary = await run('combee.importTeamBundles');
    assert.deepEqual(
      summary.bundles.map((b) => [b.bundle, b.status, b.remembered ?? false]),
      [
        ['.combee/team/alice.combee-bundle', 'unchanged', false],
        ['.combee/team/mallory.combee-bundle', 'refused', true],
      ],
    );
    assert.equal(summary.imported, 0);
  });

  it("refuses the repository's entries that leave the workspace or are no plain branch name", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'combee-team-outside-'));
    const eve = writeTeamBundle(join(outside, 'eve.combee-bundle'), 'eve', ['e0e00000-0000-4000-8000-000000000001']);
    const entries = [outside, '../team-outside', 'git:--upload-pack=touch:.combee/team', '.combee/team'];
    const settingsFile = join(workspace(), '.vscode', 'settings.json');
    writeFileSync(settingsFile, JSON.stringify({ 'combee.team.bundles': entries }, null, 2));
    try {
      await waitFor(
        () => JSON.stringify(config().get('team.bundles')) === JSON.stringify(entries),
        'the workspace settings to be read',
      );
      const summary = await run('combee.importTeamBundles');
      assert.equal(summary.problems.length, 3, JSON.stringify(summary.problems));
      assert.match(summary.problems[0], /is refused: it is absolute/);
      assert.match(summary.problems[1], /is refused: it climbs out/);
      assert.match(summary.problems[2], /"--upload-pack=touch" is not a plain branch name/);
      assert.ok(!(await api.sessionIds()).includes(eve[0]), 'the bundle outside the workspace is not read');
      assert.equal(summary.bundles.length, 2, 'the entry inside the workspace is still read');
    } finally {
      writeFileSync(settingsFile, '{}\n');
      await waitFor(() => config().inspect('team.bundles')?.workspaceValue === undefined, 'the settings to clear');
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("shows a bundle exporter's name as text in the Sessions view, never as a link or an image", async function () {
    this.timeout(60_000);
    // the exporter's name is whatever the bundle says: here Markdown that would render a link and fetch an image
    const author = 'eve [docs](https://evil.example/x) ![p](https://evil.example/p.png)';
    const ids = writeTeamBundle(join(team(), 'eve.combee-bundle'), 'eve', EVE, author);
    await run('combee.importTeamBundles');
    const nodes = await sessionsViewItems();
    for (const id of ids) {
      const tooltip = nodes.find((n) => n.id === id)?.tooltip ?? '';
      assert.match(tooltip, /a team bundle/, `${id} is listed as a teammate's session`);
      assert.doesNotMatch(tooltip, /(?<!\\)\]\(/, `no link or image markup in ${JSON.stringify(tooltip)}`);
      assert.ok(
        tooltip.replace(/\\(.)/g, '$1').includes(`from ${author} (a team bundle; the name is self-declared)`),
        tooltip,
      );
    }
  });
});
