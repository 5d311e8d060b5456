import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assetHistory, ruleIdsIn } from '../../../../src/core/service/learnRun/assetHistory';
import {
  git,
  gitInstalled,
  hostileGitConfig,
  ISOLATED,
  partialCloneWithHostileRemote,
  writeIn as write,
} from '../../../../testing/gitRepo';
import { tempDir } from '../../../../testing/tmp';

// A real git repository per test: the versions come from `git log` and `git cat-file`, the working tree's file last.

const agents = (...rules: string[]) =>
  `# Agents\n\n<!-- combee:begin -->\n${rules.map((r) => `- ${r}`).join('\n')}\n<!-- combee:end -->\n`;
const ENV = '[env-00001] helpful=2 harmful=0 :: This repo uses pnpm, never npm.';
const BLD = '[bld-00002] helpful=0 harmful=0 :: Run `pnpm db:generate` before `pnpm test`.';
const TST = '[tst-00003] helpful=0 harmful=0 :: Run `TZ=UTC pnpm vitest run src/cart`.';

/** A repository whose AGENTS.md was committed with one rule, then a second, and gained a third in the working tree. */
function repoWithHistory(): string {
  const repo = tempDir('combee-asset-history-');
  git(repo, ['init', '-q']);
  write(repo, 'AGENTS.md', agents(ENV));
  git(repo, ['add', 'AGENTS.md']);
  git(repo, ['commit', '-q', '-m', 'first rule'], '2025-01-10T08:00:00Z');
  write(repo, 'AGENTS.md', agents(ENV, BLD));
  git(repo, ['commit', '-q', '-am', 'second rule'], '2025-02-20T09:30:00Z');
  write(repo, 'AGENTS.md', agents(ENV, BLD, TST));
  const mtime = new Date('2025-03-05T12:00:00.000Z');
  utimesSync(join(repo, 'AGENTS.md'), mtime, mtime);
  return repo;
}

describe('asset history', function () {
  before(function () {
    if (!gitInstalled()) this.skip();
  });

  it('reads rule ids once each, sorted, and only well-formed bracketed ids', () => {
    assert.deepEqual(ruleIdsIn(`${BLD}\n${ENV}\n${ENV}\n[NotAnId-1] [x-123] see [sty-00004].`), [
      'bld-00002',
      'env-00001',
      'sty-00004',
    ]);
  });

  it('lists the ids per commit with the commit dates, and the uncommitted working-tree version last', async () => {
    const repo = repoWithHistory();
    assert.deepEqual(await assetHistory(repo), [
      { path: 'AGENTS.md', at: '2025-01-10T08:00:00.000Z', ruleIds: ['env-00001'] },
      { path: 'AGENTS.md', at: '2025-02-20T09:30:00.000Z', ruleIds: ['bld-00002', 'env-00001'] },
      { path: 'AGENTS.md', at: '2025-03-05T12:00:00.000Z', ruleIds: ['bld-00002', 'env-00001', 'tst-00003'] },
    ]);
  });

  it('adds no working-tree version when the file is as committed', async () => {
    const repo = repoWithHistory();
    git(repo, ['checkout', '-q', '--', 'AGENTS.md']);
    assert.deepEqual(await assetHistory(repo), [
      { path: 'AGENTS.md', at: '2025-01-10T08:00:00.000Z', ruleIds: ['env-00001'] },
      { path: 'AGENTS.md', at: '2025-02-20T09:30:00.000Z', ruleIds: ['bld-00002', 'env-00001'] },
    ]);
  });

  it("includes a folder's AGENTS.md tracked in git, and the agents' other root files", async () => {
    const repo = repoWithHistory();
    write(repo, 'services/billing/AGENTS.md', agents('[bil-00004] helpful=0 harmful=0 :: Amounts are in cents.'));
    write(repo, 'CLAUDE.md', agents('[cla-00005] helpful=0 harmful=0 :: Cite rule ids.'));
    // a folder's file of another name is not an asset
    write(repo, 'services/billing/NOTES.md', agents('[not-00006] helpful=0 harmful=0 :: Not loaded by any agent.'));
    git(repo, ['add', 'services', 'CLAUDE.md']);
    git(repo, ['commit', '-q', '-m', 'billing rules'], '2025-03-01T10:00:00Z');
    assert.deepEqual(await assetHistory(repo), [
      { path: 'AGENTS.md', at: '2025-01-10T08:00:00.000Z', ruleIds: ['env-00001'] },
      { path: 'AGENTS.md', at: '2025-02-20T09:30:00.000Z', ruleIds: ['bld-00002', 'env-00001'] },
      { path: 'CLAUDE.md', at: '2025-03-01T10:00:00.000Z', ruleIds: ['cla-00005'] },
      { path: 'services/billing/AGENTS.md', at: '2025-03-01T10:00:00.000Z', ruleIds: ['bil-00004'] },
      { path: 'AGENTS.md', at: '2025-03-05T12:00:00.000Z', ruleIds: ['bld-00002', 'env-00001', 'tst-00003'] },
    ]);
  });

  it('gives the working-tree file of a workspace that is not a git repository', async () => {
    const workspace = tempDir('combee-asset-plain-');
    write(workspace, 'AGENTS.md', agents(ENV, BLD));
    // an untracked folder's AGENTS.md is found through git only
    write(workspace, 'services/billing/AGENTS.md', agents('[bil-00004] helpful=0 harmful=0 :: Amounts are in cents.'));
    const mtime = new Date('2025-04-01T00:00:00.000Z');
    utimesSync(join(workspace, 'AGENTS.md'), mtime, mtime);
    // git must not find a repository above the temporary folder
    const ceiling = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = dirname(workspace);
    try {
      assert.deepEqual(await assetHistory(workspace), [
        { path: 'AGENTS.md', at: '2025-04-01T00:00:00.000Z', ruleIds: ['bld-00002', 'env-00001'] },
      ]);
    } finally {
      if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = ceiling;
    }
  });

  it("runs nothing a repository's configuration names: no fsmonitor hook, no pager", async () => {
    const repo = repoWithHistory();
    const outside = tempDir('combee-asset-evil-');
    const marker = hostileGitConfig(repo, outside, ['log', 'ls-tree', 'cat-file']);

    const versions = await assetHistory(repo);
    assert.equal(existsSync(marker), false, 'assetHistory ran a program the repository configured');
    assert.deepEqual(
      versions.map((v) => [v.at, v.ruleIds.join(' ')]),
      [
        ['2025-01-10T08:00:00.000Z', 'env-00001'],
        ['2025-02-20T09:30:00.000Z', 'bld-00002 env-00001'],
        ['2025-03-05T12:00:00.000Z', 'bld-00002 env-00001 tst-00003'],
      ],
    );
  });

  it("fetches nothing: a partial clone's promisor remote is never asked for a missing blob (its upload-pack never runs)", async () => {
    const { clone, marker } = partialCloneWithHostileRemote(repoWithHistory(), tempDir('combee-asset-lazy-'));
    await assetHistory(clone);
    assert.equal(existsSync(marker), false, 'assetHistory fetched a blob through the configured upload-pack');
  });

  it('checks no signature: a configured gpg program is not run, and its lines cannot break the history', async () => {
    const repo = repoWithHistory();
    // the newest commit, signed: a copy of it with a signature header, made HEAD
    const commit = git(repo, ['cat-file', 'commit', 'HEAD']);
    const signed = commit.replace(
      /^(committer [^\n]*\n)/m,
      '$1gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n',
    );
    const sha = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
      cwd: repo,
      input: signed,
      encoding: 'utf8',
      env: ISOLATED,
    }).trim();
    git(repo, ['update-ref', 'HEAD', sha]);
    const outside = tempDir('combee-asset-gpg-');
    const marker = join(outside, 'ran');
    const script = join(outside, 'gpg.sh');
    writeFileSync(script, `#!/bin/sh\necho "$*" >> '${marker}'\necho 'gpg: Signature made today'\nexit 0\n`);
    chmodSync(script, 0o755);
    git(repo, ['config', 'log.showSignature', 'true']);
    git(repo, ['config', 'gpg.program', script]);
    // the configuration is live: a plain log runs the program
    git(repo, ['log', '-1']);
    assert.equal(existsSync(marker), true, 'git log ran the configured gpg program');
    rmSync(marker);

    const versions = await assetHistory(repo);
    assert.equal(existsSync(marker), false, 'assetHistory ran the gpg program');
    assert.deepEqual(
      versions.filter((v) => v.at < '2025-03-01').map((v) => v.ruleIds.join(' ')),
      ['env-00001', 'bld-00002 env-00001'],
    );
  });
});
