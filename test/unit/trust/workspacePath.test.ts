import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyFileChange } from '../../../src/core/assets/applyChange';
import { makeFileChange } from '../../../src/core/assets/proposal';
import { readWorkspaceFile } from '../../../src/core/service/proposalFiles';
import {
  OutsideWorkspaceError,
  resolveInWorkspace,
  tryResolveInWorkspace,
  workspaceRelative,
} from '../../../src/core/trust/workspacePath';
import { tempDir } from '../../../testing/tmp';

function layout() {
  const root = tempDir('combee-paths-');
  const workspace = join(root, 'repo');
  const outside = join(root, 'outside');
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), 'outside text');
  symlinkSync(outside, join(workspace, 'escape'));
  symlinkSync(join(workspace, 'docs'), join(workspace, 'docs-link'));
  symlinkSync(join(root, 'nowhere', 'file.md'), join(workspace, 'dangling.md'));
  return { root, workspace, outside };
}

describe('workspace path confinement', () => {
  it('normalizes workspace-relative paths and refuses absolute ones, drive letters and ..', () => {
    assert.equal(workspaceRelative('./.combee//playbook.md', '/ws'), '.combee/playbook.md');
    assert.equal(workspaceRelative('docs\\rules\\', '/ws'), 'docs/rules');
    for (const bad of [
      '',
      '.',
      '/etc/passwd',
      'C:\\Users\\me\\x.md',
      'c:/x',
      '../x.md',
      'docs/../../x.md',
      '.combee/../..',
      'a\u0000b',
    ]) {
      assert.throws(() => workspaceRelative(bad, '/ws'), OutsideWorkspaceError, JSON.stringify(bad));
    }
  });

  it('names the folder the path must stay in, never a placeholder', () => {
    assert.throws(() => workspaceRelative('../x.md', '"acme-shop"'), /inside the workspace folder "acme-shop"\)/);
  });

  it('resolves inside the folder, through symlinks that stay inside, for files that do not exist yet', () => {
    const { workspace } = layout();
    assert.equal(resolveInWorkspace(workspace, '.combee/playbook.md'), join(workspace, '.combee', 'playbook.md'));
    assert.equal(
      resolveInWorkspace(workspace, 'docs-link/new/AGENTS.md'),
      join(workspace, 'docs-link', 'new', 'AGENTS.md'),
    );
  });

  it('refuses a path that leaves through a symlink, or goes through a dangling one', () => {
    const { workspace } = layout();
    assert.throws(() => resolveInWorkspace(workspace, 'escape/secret.md'), /symbolic link/);
    assert.throws(() => resolveInWorkspace(workspace, 'escape/new-folder/SKILL.md'), /symbolic link/);
    assert.throws(() => resolveInWorkspace(workspace, 'dangling.md'), /broken symbolic link/);
    assert.equal(tryResolveInWorkspace(workspace, '../outside/secret.md'), undefined);
  });

  it('the renderers read nothing outside: a path that leaves reads as absent', () => {
    const { workspace } = layout();
    assert.equal(readWorkspaceFile(workspace, 'escape/secret.md'), undefined);
    assert.equal(readWorkspaceFile(workspace, '../outside/secret.md'), undefined);
  });

  it('accepting never writes outside: .. and symlinked folders are refused, nothing is created', async () => {
    const { workspace, outside } = layout();
    for (const path of ['../outside/pwned.md', 'escape/pwned.md', '/tmp/pwned.md']) {
      const change = makeFileChange(path, undefined, 'pwned\n');
      assert.ok(change);
      await assert.rejects(applyFileChange(workspace, change), OutsideWorkspaceError, path);
    }
    assert.equal(readWorkspaceFile(outside, 'pwned.md'), undefined);
    const inside = makeFileChange('docs/ok.md', undefined, 'ok\n');
    assert.ok(inside);
    assert.equal(await applyFileChange(workspace, inside), 'written');
    assert.equal(readWorkspaceFile(workspace, 'docs/ok.md'), 'ok\n');
  });
});
