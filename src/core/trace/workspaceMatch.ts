import { readFileSync, realpathSync, statSync } from 'node:fs';
import { platform } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

function canonical(path: string): string {
  let out = resolve(path);
  try {
    out = realpathSync.native(out);
  } catch {
    // a recorded cwd may no longer exist: compare it as written
  }
  if (out.length > 1 && out.endsWith(sep)) out = out.slice(0, -1);
  return platform() === 'win32' || platform() === 'darwin' ? out.toLowerCase() : out;
}

const inside = (path: string, root: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The main checkout of a git worktree: its `.git` is a file `gitdir: <main>/.git/worktrees/<name>`. Sessions an
 * agent ran in a worktree of this repository belong to it too.
 */
function worktreeMain(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    try {
      if (statSync(dotGit).isFile()) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
        const gitdir = m ? resolve(dir, m[1]) : undefined;
        const at = gitdir ? gitdir.replace(/\\/g, '/').lastIndexOf('/.git/worktrees/') : -1;
        return gitdir && at >= 0 ? canonical(gitdir.slice(0, at)) : undefined;
      }
      return undefined;
    } catch {
      // no .git here: look further up
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A session belongs to a workspace folder when it ran in that folder or below it, symlinks resolved, case ignored on
 * case-insensitive file systems, or in a git worktree of that folder's repository.
 */
export function createWorkspaceMatcher(folders: string[]): (cwd: string | undefined) => boolean {
  const roots = folders.map(canonical);
  const cache = new Map<string, boolean>();
  return (cwd) => {
    if (!cwd) return false;
    const known = cache.get(cwd);
    if (known !== undefined) return known;
    const c = canonical(cwd);
    let match = roots.some((root) => inside(c, root));
    if (!match) {
      const main = worktreeMain(c);
      match = main !== undefined && roots.some((root) => main === root);
    }
    cache.set(cwd, match);
    return match;
  };
}
