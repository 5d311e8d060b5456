import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceMatcher } from '../../../src/core/trace/workspaceMatch';
import { tempDir } from '../../../testing/tmp';

describe('mapping sessions to workspace folders', () => {
  it('matches the folder and below, through symlinks, in git worktrees of the repository, per root of a multi-root workspace', () => {
    const root = tempDir('combee-ws-map-');
    const repo = join(root, 'shop');
    const other = join(root, 'docs');
    mkdirSync(join(repo, '.git', 'worktrees', 'feature'), { recursive: true });
    mkdirSync(join(repo, 'packages', 'api'), { recursive: true });
    mkdirSync(other);
    const worktree = join(root, 'shop-feature');
    mkdirSync(join(worktree, 'src'), { recursive: true });
    writeFileSync(join(worktree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'feature')}\n`);
    symlinkSync(repo, join(root, 'link-to-shop'));

    const matches = createWorkspaceMatcher([repo]);
    assert.ok(matches(repo));
    assert.ok(matches(join(repo, 'packages', 'api')));
    assert.ok(matches(join(root, 'link-to-shop', 'packages')));
    assert.ok(matches(join(worktree, 'src')), 'a worktree of the repository');
    assert.ok(!matches(`${repo}-old`), 'a sibling whose name starts the same');
    assert.ok(!matches(other));
    assert.ok(!matches(undefined));
    const multi = createWorkspaceMatcher([repo, other]);
    assert.ok(multi(other) && multi(repo));
  });
});
