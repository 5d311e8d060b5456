import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTeamSources } from '../../../src/core/team/teamSources';
import { tempDir } from '../../../testing/tmp';

// combee.team.bundles may come from the repository's own settings: every entry is checked against its folder.

function workspaceWithOutside() {
  const root = realpathSync(tempDir('combee-team-sources-'));
  const workspace = join(root, 'acme-shop');
  const outside = join(root, 'elsewhere');
  mkdirSync(join(workspace, '.combee', 'team'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  symlinkSync(outside, join(workspace, '.combee', 'out'));
  return { workspace, outside };
}

describe('team bundle sources (combee.team.bundles)', () => {
  it('resolves a folder inside the workspace, missing or not', () => {
    const { workspace } = workspaceWithOutside();
    const { sources, problems } = resolveTeamSources(workspace, [
      '.combee/team',
      './shared\\bundles/',
      '.combee/team/',
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(sources, [
      { kind: 'folder', entry: '.combee/team', folder: '.combee/team', path: join(workspace, '.combee', 'team') },
      {
        kind: 'folder',
        entry: './shared\\bundles/',
        folder: 'shared/bundles',
        path: join(workspace, 'shared', 'bundles'),
      },
    ]);
  });

  it('refuses a folder outside the workspace: absolute, climbing out, or through a symbolic link', () => {
    const { workspace, outside } = workspaceWithOutside();
    const entries = [outside, '../elsewhere', '.combee/../../elsewhere', '.combee/out', 'C:\\team', '', 'a\u0000b'];
    const { sources, problems } = resolveTeamSources(workspace, entries);
    assert.deepEqual(sources, []);
    assert.equal(problems.length, entries.length);
    for (const [i, entry] of entries.entries()) {
      assert.ok(problems[i].startsWith(`combee.team.bundles: ${JSON.stringify(entry)} is refused: `), problems[i]);
      assert.ok(problems[i].endsWith('; it is not read'), problems[i]);
    }
    assert.match(problems[0], /absolute/);
    assert.match(problems[1], /climbs out/);
    assert.match(problems[3], /symbolic link/);
  });

  it('parses git:<branch>:<folder>, the folder defaulting to .combee/team', () => {
    const { workspace } = workspaceWithOutside();
    const { sources, problems } = resolveTeamSources(workspace, [
      'git:combee-team:.combee/team',
      'git:team/bundles:shared/team/',
      'git:combee-team',
      'git:combee-team:./.combee/team',
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(sources, [
      { kind: 'branch', entry: 'git:combee-team:.combee/team', branch: 'combee-team', folder: '.combee/team' },
      { kind: 'branch', entry: 'git:team/bundles:shared/team/', branch: 'team/bundles', folder: 'shared/team' },
    ]);
  });

  it('refuses a branch that is no plain name, and a branch folder that leaves the workspace', () => {
    const { workspace } = workspaceWithOutside();
    const entries = [
      'git:--upload-pack=x:.combee/team',
      'git:a..b:.combee/team',
      'git::.combee/team',
      'git:main~1:.combee/team',
      'git:combee-team:../outside',
      'git:combee-team:/etc',
    ];
    const { sources, problems } = resolveTeamSources(workspace, entries);
    assert.deepEqual(sources, []);
    assert.equal(problems.length, entries.length);
    assert.match(problems[0], /"--upload-pack=x" is not a plain branch name: it starts with "-"/);
    assert.match(problems[1], /"a\.\.b" is not a plain branch name: it holds "\.\."/);
    assert.match(problems[2], /it is empty/);
    assert.match(problems[4], /climbs out/);
    assert.match(problems[5], /absolute/);
  });
});
