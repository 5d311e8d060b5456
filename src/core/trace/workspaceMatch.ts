import { realpathSync } from 'node:fs';
import { platform } from 'node:os';
import { resolve, sep } from 'node:path';

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

/** A session belongs to a workspace folder when it ran in that folder or below it (symlinks resolved). */
export function createWorkspaceMatcher(folders: string[]): (cwd: string | undefined) => boolean {
  const roots = folders.map(canonical);
  return (cwd) => {
    if (!cwd) return false;
    const c = canonical(cwd);
    return roots.some((root) => c === root || c.startsWith(root.endsWith(sep) ? root : root + sep));
  };
}
