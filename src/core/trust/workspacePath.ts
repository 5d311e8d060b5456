import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * Paths named by settings, repository files, proposals or model answers are untrusted: each one must stay inside the
 * workspace folder, after following symlinks. Shared by the extension and the CLI.
 */
export class OutsideWorkspaceError extends Error {
  constructor(
    readonly path: string,
    readonly workspace: string,
    readonly why: string,
  ) {
    super(`${JSON.stringify(path)} is refused: ${why} (it must stay inside the workspace folder ${workspace})`);
    this.name = 'OutsideWorkspaceError';
  }
}

/** `./a\\b/` → `a/b`; throws on absolute paths, drive letters, `..`, empty names and control characters. */
export function workspaceRelative(raw: string, workspace: string): string {
  const unified = raw.trim().replace(/\\/g, '/');
  if (unified === '' || unified === '.') throw new OutsideWorkspaceError(raw, workspace, 'it names no file');
  if (/[\u0000-\u001f]/.test(unified)) throw new OutsideWorkspaceError(raw, workspace, 'it holds control characters');
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified) || isAbsolute(raw))
    throw new OutsideWorkspaceError(raw, workspace, 'it is absolute');
  const parts = unified.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) throw new OutsideWorkspaceError(raw, workspace, 'it climbs out with ".."');
  if (parts.length === 0) throw new OutsideWorkspaceError(raw, workspace, 'it names no file');
  return parts.join('/');
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The deepest part of `path` that exists (following symlinks), and the names below it that do not exist yet. */
function realExistingPrefix(path: string, workspace: string, raw: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    let isLink = false;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      const parent = dirname(current);
      if (parent === current) return current;
      missing.unshift(basename(current));
      current = parent;
      continue;
    }
    try {
      return join(realpathSync(current), ...missing);
    } catch {
      // A dangling link: writing through it would create its target, wherever that is.
      throw new OutsideWorkspaceError(
        raw,
        workspace,
        isLink ? 'it goes through a broken symbolic link' : 'it cannot be resolved',
      );
    }
  }
}

/**
 * The absolute path of a workspace-relative path, refused (OutsideWorkspaceError) when it, or any symlink on the way,
 * leads outside the workspace folder.
 */
export function resolveInWorkspace(workspace: string, raw: string): string {
  const rel = workspaceRelative(raw, workspace);
  const lexical = join(workspace, ...rel.split('/'));
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    throw new OutsideWorkspaceError(raw, workspace, 'the workspace folder does not exist');
  }
  const real = realExistingPrefix(lexical, workspace, raw);
  if (!inside(root, real))
    throw new OutsideWorkspaceError(raw, workspace, `it leads to ${real} through a symbolic link`);
  return lexical;
}

/** resolveInWorkspace without the throw: undefined when refused. */
export function tryResolveInWorkspace(workspace: string, raw: string): string | undefined {
  try {
    return resolveInWorkspace(workspace, raw);
  } catch (error) {
    if (error instanceof OutsideWorkspaceError) return undefined;
    throw error;
  }
}
