// Restricted Mode (the folder is not trusted): sessions are still imported and listed, but Combee learns nothing,
// writes nothing to the workspace and ignores every Combee setting the repository brings.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { captureHome, learn, run, workspaceFolder } from '../suite/combee';
import { writeTeamBundle } from '../suite/teamBundles';
import type { CombeeApi } from '../../../src/extension/extension';

const workspace = () => workspaceFolder().uri.fsPath;

describe('Restricted Mode', () => {
  let api: CombeeApi;

  before(async () => {
    const extension = vscode.extensions.getExtension<CombeeApi>('combee.combee');
    assert.ok(extension, 'Combee is loaded in Restricted Mode (limited support is declared)');
    api = await extension.activate();
  });

  it('runs in an untrusted window', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(api.effectiveSettings().trusted, false);
  });

  it("still imports and lists the folder's sessions", async () => {
    const home = captureHome();
    const imported = await run('combee.importSessions', home);
    assert.ok(imported! > 0, 'sessions imported');
    assert.ok((await api.sessionIds()).length > 0, 'sessions listed');
  });

  it("uses none of the repository's Combee settings, not even the harmless ones", async () => {
    writeFileSync(
      join(workspace(), '.vscode', 'settings.json'),
      JSON.stringify({
        'editor.tabSize': 7,
        'combee.playbook.path': 'docs/playbook.md',
        'combee.assets.skillRoots': ['.agents/skills'],
        'combee.assets.targets': ['playbook', 'claude-md'],
      }),
    );
    // VS Code has read the file (its editor setting applies), yet none of Combee's is used.
    const seen = () => vscode.workspace.getConfiguration('editor').get('tabSize') === 7;
    for (let i = 0; i < 200 && !seen(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(seen(), 'the workspace settings were read');
    const { settings } = api.effectiveSettings();
    assert.equal(settings.playbookPath, '.combee/playbook.md');
    assert.deepEqual(settings.skillRoots, ['.claude/skills']);
    assert.deepEqual(settings.assetTargets, ['playbook', 'agents-md', 'skills']);
  });

  it("imports none of the repository's team bundles", async () => {
    const team = join(workspace(), '.combee', 'team');
    mkdirSync(team, { recursive: true });
    try {
      const ids = writeTeamBundle(join(team, 'alice.combee-bundle'), 'alice', ['a11ce000-0000-4000-8000-00000000000a']);
      // the command and every capture go through the same import, which refuses in Restricted Mode
      const summary = await run('combee.importTeamBundles');
      assert.deepEqual(summary, { bundles: [], problems: [], imported: 0, restricted: true });
      assert.ok(!(await api.sessionIds()).includes(ids[0]), 'the bundle was not imported');
    } finally {
      rmSync(join(workspace(), '.combee'), { recursive: true, force: true });
    }
  });

  it('learns nothing and writes nothing to the workspace', async () => {
    const result = await learn();
    assert.equal(result, undefined);
    assert.deepEqual(await api.pendingProposals(), []);
    assert.equal(await run('combee.acceptProposal'), undefined);
    assert.ok(!existsSync(join(workspace(), '.combee')), 'no playbook written');
    assert.ok(!existsSync(join(workspace(), 'docs')), 'nothing written where the repository asked');
  });
});
