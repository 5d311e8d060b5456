import { readFile, stat } from 'node:fs/promises';
import { join, posix, win32 } from 'node:path';
import { isRecord, uriToPath } from './common';

/** A workspace.json is a line of JSON: anything this big is not one. */
const MAX_WORKSPACE_JSON_BYTES = 1024 * 1024;

/**
 * The folder a VS Code-style window had open, from the `workspace.json` in its workspace-storage folder: its
 * `folder`, or the folder of its multi-root `.code-workspace` file (with the separators that file's path uses, as
 * written on the machine that wrote it). `undefined` when there is none (an empty window, a copied file) or it is
 * unreadable.
 */
export async function workspaceJsonFolder(storageDir: string): Promise<string | undefined> {
  let json: unknown;
  try {
    const file = join(storageDir, 'workspace.json');
    if ((await stat(file)).size > MAX_WORKSPACE_JSON_BYTES) return undefined;
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  if (typeof json.folder === 'string') return uriToPath(json.folder);
  const workspaceFile = typeof json.workspace === 'string' ? uriToPath(json.workspace) : undefined;
  return workspaceFile ? (workspaceFile.includes('\\') ? win32 : posix).dirname(workspaceFile) : undefined;
}
