import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TraceStore } from '../../../src/core/store/traceStore';
import {
  branchNameProblem,
  BranchSourceError,
  copyBranchBundle,
  listBranchBundles,
} from '../../../src/core/team/branchBundles';
import { importTeamBundles } from '../../../src/core/team/teamImport';
import { git, gitInstalled, hostileGitConfig, writeIn } from '../../../testing/gitRepo';
import { writeTeamBundle } from '../../support/teamBundleFiles';
import { tempDir } from '../../../testing/tmp';
import { parseAllowedSigners } from '../../../src/core/team/allowedSigners';
import { nodeSshKey, nodeSshsig } from '../../support/sshSigning';

// A real repository per test: the team's bundles are committed on a side branch, the checked-out branch has none.

interface Repo {
  repo: string;
  alice: Buffer;
  bob: Buffer;
}

/** main with a README; `combee-team` with two bundles in .combee/team, and files that are no bundle of that folder. */
async function repoWithTeamBranch(): Promise<Repo> {
  const repo = tempDir('combee-branch-');
  git(repo, ['init', '-q', '-b', 'main']);
  writeIn(repo, 'README.md', '# acme-shop\n');
  git(repo, ['add', '.']);
  git(repo, ['commit', '-q', '-m', 'start']);
  git(repo, ['checkout', '-q', '-b', 'combee-team']);
  const bundles = tempDir('combee-branch-bundles-');
  const alice = await writeTeamBundle(join(bundles, 'alice.combee-bundle'), 'alice', 2);
  const bob = await writeTeamBundle(join(bundles, 'bob.combee-bundle'), 'bob', 3);
  writeIn(repo, '.combee/team/alice.combee-bundle', alice);
  writeIn(repo, '.combee/team/bob.combee-bundle', bob);
  writeIn(repo, '.combee/team/notes.txt', 'not a bundle\n');
  writeIn(repo, '.combee/team/older/carol.combee-bundle', alice);
  writeIn(repo, '.combee/teammates/dave.combee-bundle', alice);
  symlinkSync('/etc/passwd', join(repo, '.combee', 'team', 'link.combee-bundle'));
  git(repo, ['add', '.']);
  git(repo, ['commit', '-q', '-m', 'team bundles']);
  git(repo, ['checkout', '-q', 'main']);
  assert.equal(existsSync(join(repo, '.combee')), false, 'the bundles are not in the work tree');
  return { repo, alice, bob };
}

describe('team bundles on a branch', function () {
  before(function () {
    if (!gitInstalled()) this.skip();
  });

  it('lists the bundles directly in the folder of the branch, and copies each blob byte for byte', async () => {
    const { repo, alice, bob } = await repoWithTeamBranch();
    const listing = await listBranchBundles(repo, 'combee-team', '.combee/team');
    assert.equal(listing.ref, 'refs/heads/combee-team');
    assert.equal(listing.commit, git(repo, ['rev-parse', 'combee-team']).trim());
    assert.deepEqual(
      listing.bundles.map((b) => [b.path, b.size]),
      [
        ['.combee/team/alice.combee-bundle', alice.length],
        ['.combee/team/bob.combee-bundle', bob.length],
      ],
    );
    const copy = join(tempDir('combee-branch-copy-'), 'alice.combee-bundle');
    await copyBranchBundle(repo, listing.bundles[0], copy);
    assert.deepEqual(readFileSync(copy), alice);
  });

  it('imports them into the store, and reads a bundle again only when its blob changed', async () => {
    const { repo } = await repoWithTeamBranch();
    const workspace = repo;
    const store = new TraceStore(tempDir('combee-branch-store-'));
    const first = await importTeamBundles({ store, workspace, entries: ['git:combee-team:.combee/team'] });
    assert.deepEqual(first.problems, []);
    assert.deepEqual(
      first.bundles.map((b) => [b.bundle, b.status, b.result?.imported]),
      [
        ['git:combee-team:.combee/team/alice.combee-bundle', 'imported', 2],
        ['git:combee-team:.combee/team/bob.combee-bundle', 'imported', 3],
      ],
    );
    const traces = await store.listTraces();
    assert.deepEqual(
      traces.map((t) => [t.id, t.contributor, t.cwd]),
      [
        ['claude-code:alice-team-0', 'alice', workspace],
        ['claude-code:alice-team-1', 'alice', workspace],
        ['claude-code:bob-team-0', 'bob', workspace],
        ['claude-code:bob-team-1', 'bob', workspace],
        ['claude-code:bob-team-2', 'bob', workspace],
      ],
    );

    const again = await importTeamBundles({ store, workspace, entries: ['git:combee-team:.combee/team'] });
    assert.deepEqual(
      again.bundles.map((b) => b.status),
      ['unchanged', 'unchanged'],
    );

    // bob exports again: only his bundle is read
    git(repo, ['checkout', '-q', 'combee-team']);
    await writeTeamBundle(join(repo, '.combee', 'team', 'bob.combee-bundle'), 'bob', 4);
    git(repo, ['commit', '-q', '-am', 'bob again']);
    git(repo, ['checkout', '-q', 'main']);
    const third = await importTeamBundles({ store, workspace, entries: ['git:combee-team'] });
    assert.deepEqual(
      third.bundles.map((b) => [b.bundle, b.status, b.result?.imported, b.result?.duplicates]),
      [
        ['git:combee-team:.combee/team/alice.combee-bundle', 'unchanged', undefined, undefined],
        ['git:combee-team:.combee/team/bob.combee-bundle', 'imported', 1, 3],
      ],
    );
  });

  it("reads a bundle's .sig committed beside it, so its signer is verified as for a folder bundle; a signature added later has it read again", async () => {
    const { repo } = await repoWithTeamBranch();
    const alice = nodeSshKey('ssh-ed25519');
    const allowedSigners = parseAllowedSigners(`alice@example.com ${alice.publicLine}`, 'allowed_signers');
    const store = new TraceStore(tempDir('combee-branch-store-'));
    const entries = ['git:combee-team:.combee/team'];
    const unsigned = await importTeamBundles({ store, workspace: repo, entries, allowedSigners });
    assert.deepEqual(
      unsigned.bundles.map((b) => b.result?.signature.status),
      ['unsigned', 'unsigned'],
    );

    git(repo, ['checkout', '-q', 'combee-team']);
    const bundle = join(repo, '.combee', 'team', 'alice.combee-bundle');
    writeFileSync(`${bundle}.sig`, nodeSshsig(alice, readFileSync(bundle), 'combee-bundle'));
    git(repo, ['add', '.']);
    git(repo, ['commit', '-q', '-m', 'alice signs']);
    git(repo, ['checkout', '-q', 'main']);
    const listing = await listBranchBundles(repo, 'combee-team', '.combee/team');
    assert.deepEqual(
      listing.bundles.map((b) => [b.path, b.signature !== undefined]),
      [
        ['.combee/team/alice.combee-bundle', true],
        ['.combee/team/bob.combee-bundle', false],
      ],
    );

    const signed = await importTeamBundles({ store, workspace: repo, entries, allowedSigners });
    assert.deepEqual(
      signed.bundles.map((b) => [b.status, b.result?.signature.status]),
      [
        ['imported', 'verified'],
        ['unchanged', undefined],
      ],
    );
  });

  it('finds a branch fetched from origin but never checked out (refs/remotes/origin/…)', async () => {
    const { repo } = await repoWithTeamBranch();
    git(repo, ['update-ref', 'refs/remotes/origin/team-ci', 'combee-team']);
    git(repo, ['branch', '-q', '-D', 'combee-team']);
    const listing = await listBranchBundles(repo, 'team-ci', '.combee/team');
    assert.equal(listing.ref, 'refs/remotes/origin/team-ci');
    assert.equal(listing.bundles.length, 2);
  });

  it('says so when the branch does not exist, or the folder is no repository', async () => {
    const { repo } = await repoWithTeamBranch();
    await assert.rejects(listBranchBundles(repo, 'no-such-branch', '.combee/team'), (error: unknown) => {
      assert.ok(error instanceof BranchSourceError);
      assert.match(error.message, /"no-such-branch" not found/);
      return true;
    });
    const plain = tempDir('combee-branch-plain-');
    await assert.rejects(listBranchBundles(plain, 'combee-team', '.combee/team'), BranchSourceError);
  });

  it('refuses a branch name that is no plain name, so it can never become an option or an expression', async () => {
    const { repo } = await repoWithTeamBranch();
    const hostile = [
      '--upload-pack=x',
      '-b',
      'a..b',
      'main~1',
      'main^',
      'HEAD@{1}',
      '@',
      'a b',
      'x:y',
      'star*',
      'tab\tname',
      'new\nline',
      'back\\slash',
      '/leading',
      'trailing/',
      'double//slash',
      '.hidden',
      'team/.hidden',
      'team.lock',
      'ends.',
      '',
    ];
    for (const name of hostile) {
      assert.ok(branchNameProblem(name), `${JSON.stringify(name)} is refused`);
      await assert.rejects(listBranchBundles(repo, name, '.combee/team'), (error: unknown) => {
        assert.ok(error instanceof BranchSourceError, String(error));
        assert.match(error.message, /is refused/);
        return true;
      });
    }
    for (const name of ['combee-team', 'team/bundles', 'release-1.2', 'user@team', 'HEAD'])
      assert.equal(branchNameProblem(name), undefined, name);
  });

  it("runs nothing a repository's configuration names: no fsmonitor, no pager, no hooks", async () => {
    const { repo, alice } = await repoWithTeamBranch();
    const outside = tempDir('combee-branch-evil-');
    const marker = hostileGitConfig(repo, outside, ['ls-tree', 'cat-file', 'rev-parse']);

    const listing = await listBranchBundles(repo, 'combee-team', '.combee/team');
    const copy = join(outside, 'copy.combee-bundle');
    await copyBranchBundle(repo, listing.bundles[0], copy);
    const store = new TraceStore(join(outside, 'store'));
    const result = await importTeamBundles({ store, workspace: repo, entries: ['git:combee-team:.combee/team'] });
    assert.equal(existsSync(marker), false, 'reading the branch ran a program the repository configured');
    assert.deepEqual(readFileSync(copy), alice);
    assert.equal(result.imported, 5);
  });
});
