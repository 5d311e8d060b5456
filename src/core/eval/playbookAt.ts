import { emptyPlaybook, parsePlaybook } from '../playbook/markdown';
import type { Playbook } from '../playbook/model';
import { resolveInWorkspace } from '../trust/workspacePath';
import { tryGit } from '../util/git';
import { readTextIfExists } from '../util/io';

// The playbook the earlier sessions ran against: its newest version committed before the first of them. Today's
// file may already hold what those sessions (or later ones) taught, which would hide it from the backtest.

export interface PlaybookThen {
  playbook: Playbook;
  /** Where it came from: a commit, the working tree (no history to place it), or nothing (no file then). */
  source: { kind: 'commit'; sha: string; at: string } | { kind: 'working tree' } | { kind: 'none' };
}

const LOG_LINE = /^([0-9a-f]{40,64}) (\S+)$/;

export async function playbookAt(workspace: string, playbookPath: string, before: number): Promise<PlaybookThen> {
  const file = resolveInWorkspace(workspace, playbookPath);
  const log = await tryGit(workspace, [
    'log',
    '--no-show-signature',
    '--format=%H %cI',
    '--no-renames',
    '--',
    playbookPath,
  ]);
  const commits = (log ?? '').split('\n').flatMap((line) => {
    const m = LOG_LINE.exec(line.trim());
    return m && Number.isFinite(Date.parse(m[2])) ? [{ sha: m[1], at: m[2] }] : [];
  });
  if (commits.length === 0) {
    const text = await readTextIfExists(file);
    return text === undefined
      ? { playbook: emptyPlaybook(), source: { kind: 'none' } }
      : { playbook: parsePlaybook(text), source: { kind: 'working tree' } };
  }
  // git log lists newest first
  const then = commits.find((c) => Date.parse(c.at) <= before);
  if (!then) return { playbook: emptyPlaybook(), source: { kind: 'none' } };
  const text = await tryGit(workspace, ['cat-file', 'blob', `${then.sha}:./${playbookPath}`]);
  return {
    playbook: text === undefined ? emptyPlaybook() : parsePlaybook(text),
    source: { kind: 'commit', sha: then.sha, at: new Date(then.at).toISOString() },
  };
}
