// A tool call's own working folder, stored the way the session's folder is: a folder inside the session's is written
// relative to it ("." or "app/web"), so a lesson can say where a command works without naming the machine; any other
// folder is kept exactly as the agent recorded it, like `cwd`.

/** `workdir` relative to `cwd` when it is `cwd` or inside it; otherwise unchanged. */
export function relativeWorkdir(workdir: string, cwd: string | undefined): string {
  if (!cwd) return workdir;
  const base = trimSeparators(cwd);
  const dir = trimSeparators(workdir);
  if (!base || !isAbsolutePath(dir)) return workdir;
  if (dir === base) return '.';
  const rest = dir.slice(base.length);
  if (!dir.startsWith(base) || !/^[\\/]/.test(rest)) return workdir;
  const parts = rest.split(/[\\/]+/).filter(Boolean);
  // ".." would climb out of the session's folder: such a path is kept as recorded
  if (parts.some((p) => p === '..' || p === '.')) return workdir;
  return parts.join('/');
}

function trimSeparators(path: string): string {
  return path.length > 1 ? path.replace(/(?<=.)[\\/]+$/, '') : path;
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}
