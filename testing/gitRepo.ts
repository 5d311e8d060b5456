import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Real git repositories for tests, isolated from the machine's git configuration.

export const ISOLATED: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_SYSTEM: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};
delete ISOLATED.GIT_DIR;
delete ISOLATED.GIT_WORK_TREE;
delete ISOLATED.GIT_INDEX_FILE;

export function gitInstalled(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs git in `repo` as a fixed user, nothing signed, with the commit dated `date` when given. */
export function git(repo: string, args: string[], date?: string): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args],
    {
      cwd: repo,
      encoding: 'utf8',
      env: date ? { ...ISOLATED, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : ISOLATED,
    },
  );
}

/** Writes a file of the work tree (its folders made). */
export function writeIn(repo: string, path: string, content: string | Uint8Array): void {
  const file = join(repo, ...path.split('/'));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * Points the repository's own configuration (fsmonitor, pagers, hooks) at a script that notes each run in the
 * returned marker file, and proves the configuration is live: a plain `git status` runs it once (the marker is then
 * removed). A reader of the repository that runs nothing leaves no marker.
 */
export function hostileGitConfig(repo: string, outside: string, pagedCommands: readonly string[]): string {
  const marker = join(outside, 'ran');
  const script = join(outside, 'evil.sh');
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat > /dev/null\nexit 1\n`, { mode: 0o755 });
  git(repo, ['config', 'core.fsmonitor', script]);
  git(repo, ['config', 'core.pager', script]);
  for (const command of pagedCommands) git(repo, ['config', `pager.${command}`, script]);
  git(repo, ['config', 'core.hooksPath', outside]);
  for (const hook of ['post-checkout', 'pre-commit', 'post-index-change', 'reference-transaction'])
    writeFileSync(join(outside, hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`, { mode: 0o755 });
  git(repo, ['status', '--porcelain']);
  if (!existsSync(marker)) throw new Error('git status did not run the configured fsmonitor: the check proves nothing');
  rmSync(marker);
  return marker;
}

/**
 * A `--filter=blob:none` clone of `origin` whose promisor remote's upload-pack is a script that notes each run in the
 * returned marker, proven live: reading a blob the clone lacks runs it once (the marker is then removed). `missing`
 * is another blob the clone lacks. A reader of the clone that fetches nothing leaves no marker.
 */
export function partialCloneWithHostileRemote(
  origin: string,
  outside: string,
): { clone: string; marker: string; missing: string } {
  git(origin, ['config', 'uploadpack.allowFilter', 'true']);
  const clone = join(outside, 'clone');
  execFileSync('git', ['clone', '-q', '--filter=blob:none', '--no-checkout', `file://${origin}`, clone], {
    env: ISOLATED,
  });
  const marker = join(outside, 'ran');
  const script = join(outside, 'upload-pack.sh');
  writeFileSync(script, `#!/bin/sh\necho ran >> '${marker}'\nexec git-upload-pack "$@"\n`, { mode: 0o755 });
  git(clone, ['config', 'remote.origin.uploadpack', script]);
  const first = git(clone, ['rev-list', '--max-parents=0', 'HEAD']).trim();
  git(clone, ['cat-file', '-p', `${first}^{tree}`]);
  const blobs = git(clone, ['rev-list', '--objects', '--missing=print', 'HEAD'])
    .split('\n')
    .filter((line) => line.startsWith('?'))
    .map((line) => line.slice(1));
  if (blobs.length < 2) throw new Error('the clone lacks no blobs: the check proves nothing');
  git(clone, ['cat-file', '-p', blobs[0]]);
  if (!existsSync(marker))
    throw new Error('a lazy fetch did not run the configured upload-pack: the check proves nothing');
  rmSync(marker);
  return { clone, marker, missing: blobs[1] };
}
