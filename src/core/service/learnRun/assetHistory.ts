import { stat } from 'node:fs/promises';
import { importedPaths } from '../../agents/imports';
import { rootFilesOfAnyAgent } from '../../agents/loading';
import { TARGETS } from '../../assets/targets';
import type { AssetVersion } from '../../learn/rules/inPlay';
import { tryResolveInWorkspace } from '../../trust/workspacePath';
import { tryGit } from '../../util/git';
import { readTextIfExists } from '../../util/io';

// Which rules each asset file held, and since when: from the repository's history where there is one (each commit
// that changed the file), and the working tree's file from its last change (an accepted proposal not yet committed).
// Git is run read-only with fixed arguments, through plumbing commands only (util/git.ts: no pager, no diff or
// text-conversion drivers, no hooks, no fsmonitor): a cloned repository's configuration cannot make it run anything.

const RULE_ID = /\[([a-z][a-z0-9]{0,7}-\d{5})\]/g;
/** Versions of one file looked at, newest first: enough to place the sessions of the learning window. */
const MAX_VERSIONS = 40;
const LOG_LINE = /^([0-9a-f]{40,64}) (\S+)$/;

/**
 * The asset files an agent may load: every agent's root files, Combee's own files in the agents' rule folders, and the
 * folders' own AGENTS.md and CLAUDE.md.
 */
const ROOT_ASSETS = [
  ...new Set([
    ...rootFilesOfAnyAgent(),
    ...TARGETS.filter((t) => !t.required).flatMap((t) => t.paths.filter((p) => !p.includes('<'))),
  ]),
];
const FOLDER_ASSET = /(^|\/)(AGENTS|CLAUDE)\.md$/;

export function ruleIdsIn(text: string): string[] {
  return [...new Set([...text.matchAll(RULE_ID)].map((m) => m[1]))].sort();
}

function versionOf(path: string, at: string, text: string | undefined): AssetVersion {
  const imports = text === undefined ? [] : importedPaths(text, path);
  return { path, at, ruleIds: text === undefined ? [] : ruleIdsIn(text), ...(imports.length > 0 ? { imports } : {}) };
}

// no git, not a repository, or no commits yet: the working tree is all there is
const git = (workspace: string, args: string[]) => tryGit(workspace, args);

/** Every version of the workspace's asset files with the rule ids each held, oldest first. */
export async function assetHistory(workspace: string): Promise<AssetVersion[]> {
  // NUL-separated: git quotes paths with other than ASCII characters in its line output
  const tracked =
    (await git(workspace, ['ls-tree', '-r', '-z', '--name-only', 'HEAD']))?.split('\0').filter(Boolean) ?? [];
  const paths = [...new Set([...ROOT_ASSETS, ...tracked.filter((p) => FOLDER_ASSET.test(p))])].sort();
  const versions: AssetVersion[] = [];
  for (const path of paths) {
    const file = tryResolveInWorkspace(workspace, path);
    if (!file) continue;
    const log = await git(workspace, [
      'log',
      `-${MAX_VERSIONS}`,
      '--no-show-signature',
      '--format=%H %cI',
      '--no-renames',
      '--',
      path,
    ]);
    let committed: string | undefined;
    const commits = (log?.split('\n') ?? []).flatMap((line) => {
      const m = LOG_LINE.exec(line);
      return m && !Number.isNaN(Date.parse(m[2])) ? [{ sha: m[1], at: m[2] }] : [];
    });
    for (const [i, { sha, at }] of commits.entries()) {
      const text = await git(workspace, ['cat-file', 'blob', `${sha}:${path}`]);
      if (i === 0) committed = text; // the newest commit's version: the working tree differs from it or not
      versions.push(versionOf(path, new Date(at).toISOString(), text));
    }
    const current = await readTextIfExists(file);
    if (current === undefined || current === committed) continue;
    const changed = await stat(file).catch(() => undefined);
    if (changed) versions.push(versionOf(path, changed.mtime.toISOString(), current));
  }
  return versions.sort((a, b) => a.at.localeCompare(b.at) || a.path.localeCompare(b.path));
}
