import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { tryResolveInWorkspace, workspaceRelative } from '../../trust/workspacePath';

// A decision that creates `.claude/skills/x/SKILL.md` creates the folders on the way too; undo takes them back out
// when nothing else was put in them since.

/** The folders of a workspace-relative file path that do not exist yet (workspace-relative, outermost first). */
export function missingFolders(workspace: string, path: string): string[] {
  let parts: string[];
  try {
    parts = workspaceRelative(path, workspace).split('/').slice(0, -1);
  } catch {
    return [];
  }
  const missing: string[] = [];
  for (let depth = 1; depth <= parts.length; depth++) {
    const folder = parts.slice(0, depth).join('/');
    const absolute = tryResolveInWorkspace(workspace, folder);
    if (absolute !== undefined && !existsSync(absolute)) missing.push(folder);
  }
  return missing;
}

/**
 * Removes the given folders (workspace-relative), deepest first, each only while it is empty: whatever someone put in
 * one since keeps it. Returns those removed.
 */
export function removeEmptyFolders(workspace: string, folders: readonly string[]): string[] {
  const removed: string[] = [];
  const deepestFirst = [...new Set(folders)].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const folder of deepestFirst) {
    const absolute = tryResolveInWorkspace(workspace, folder);
    if (absolute === undefined || !existsSync(absolute)) continue;
    try {
      if (readdirSync(absolute).length > 0) continue;
      rmdirSync(absolute);
      removed.push(folder);
    } catch {
      // not a folder, or taken by another process: left as it is
    }
  }
  return removed;
}
