import assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'combee.combee';

describe('activation', () => {
  it('is installed and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every contributed command', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    await ext!.activate();
    const contributed = (ext!.packageJSON.contributes?.commands ?? []).map(
      (c: { command: string }) => c.command,
    ) as string[];
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
      'contributed but not registered',
    );
  });
});
