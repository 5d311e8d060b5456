import { posix } from 'node:path';

// A rule is read in every checkout of the repository: its folders are the workspace's own, relative. A path into the
// workspace written from one machine (`/home/x/repo/web`, `~/repo/web`) becomes `web`; a path outside it (another
// home folder, /tmp) makes a command that runs on one machine only, and no rule.

/** Absolute or home-relative paths in a command line (not options, not URLs). */
const PATH = /(?<![\w:/.-])(?:~|\/)[^\s'"`;&|()<>]*/g;
/** Device files a command writes to or reads from are the same on every machine. */
const UNIVERSAL = /^\/dev\/(?:null|stdin|stdout|stderr|tty)$/;

/** The workspace folder as the session saw it, and its home-relative spelling when it sits in a home folder. */
function spellings(workspace: string): string[] {
  const root = posix.normalize(workspace).replace(/\/$/, '');
  const home = /^(?:\/Users|\/home)\/[^/]+(\/.+)$/.exec(root);
  return home ? [root, `~${home[1]}`] : [root];
}

/** `path` relative to the workspace, '.' for the workspace itself; undefined when it lies outside. */
export function workspaceRelative(path: string, workspace: string | undefined): string | undefined {
  if (!workspace) return undefined;
  const clean = path.replace(/\/$/, '');
  for (const root of spellings(workspace)) {
    if (clean === root) return '.';
    if (clean.startsWith(`${root}/`)) return posix.normalize(clean.slice(root.length + 1));
  }
  return undefined;
}

/**
 * The command with every path into the workspace made relative to `folder` (the workspace-relative folder it runs in),
 * or undefined when it names a path outside the workspace.
 */
export function relativeCommand(command: string, workspace: string | undefined, folder = '.'): string | undefined {
  let outside = false;
  const rewritten = command.replace(PATH, (path) => {
    if (UNIVERSAL.test(path)) return path;
    const inside = workspaceRelative(path, workspace);
    if (inside === undefined) {
      outside = true;
      return path;
    }
    const relative = posix.relative(folder === '.' ? '' : folder, inside === '.' ? '' : inside);
    return relative === '' ? '.' : relative;
  });
  return outside ? undefined : rewritten;
}

/** The workspace-relative folder a command ran in ('.' for the root); undefined when outside the workspace. */
export function relativeFolder(cwd: string | undefined, workspace: string | undefined): string | undefined {
  if (cwd === undefined) return '.';
  if (!cwd.startsWith('/') && !cwd.startsWith('~')) return posix.normalize(cwd);
  return workspaceRelative(cwd, workspace);
}
