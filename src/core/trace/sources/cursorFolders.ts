import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, posix, win32 } from 'node:path';
import { isRecord, uriToPath } from './common';
import { cellJson, openSqlite } from './sqlite';
import { workspaceJsonFolder } from './vscodeWorkspace';

// Which folder a composer of the global database belongs to: the workspace databases beside it that list it (with
// their workspace.json), else the deepest folder holding the files in its context.

const WORKSPACE_COMPOSERS_KEY = 'composer.composerData';

/** Workspace databases are opened only to map composers to folders; larger ones are passed over. */
const MAX_WORKSPACE_DB_BYTES = 64 * 1024 * 1024;

interface ListedWorkspace {
  bytes: number;
  mtimeMs: number;
  folder?: string;
  composerIds: string[];
}

/** Per process: each workspace database is opened again only when it changed. */
const listedCache = new Map<string, ListedWorkspace>();

/** composerId → folder, from the workspace databases next to a global one (`<User>/workspaceStorage/*`). */
export async function composerFolders(globalDb: string): Promise<Map<string, string>> {
  const folders = new Map<string, string>();
  const storage = dirname(globalDb);
  if (basename(storage) !== 'globalStorage') return folders;
  const root = join(dirname(storage), 'workspaceStorage');
  let names: string[];
  try {
    names = (await readdir(root)).sort();
  } catch {
    return folders;
  }
  for (const name of names) {
    const path = join(root, name, 'state.vscdb');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) continue;
    let entry = listedCache.get(path);
    if (!entry || entry.bytes !== info.size || entry.mtimeMs !== info.mtimeMs) {
      const folder = await workspaceJsonFolder(join(root, name));
      entry = {
        bytes: info.size,
        mtimeMs: info.mtimeMs,
        folder,
        composerIds: folder ? await listedComposers(path, info.size) : [],
      };
      listedCache.set(path, entry);
    }
    if (entry.folder) for (const id of entry.composerIds) if (!folders.has(id)) folders.set(id, entry.folder);
  }
  return folders;
}

async function listedComposers(path: string, bytes: number): Promise<string[]> {
  // Only a hint for the folder: a workspace database that cannot be read is passed over quietly.
  const image = await openSqlite(path, bytes, {
    warn: () => undefined,
    tooLarge: () => undefined,
    maxBytes: MAX_WORKSPACE_DB_BYTES,
  });
  if (!image) return [];
  const ids: string[] = [];
  try {
    if (!image.tables().has('ItemTable')) return ids;
    image.each('SELECT value FROM ItemTable WHERE key = ?', [WORKSPACE_COMPOSERS_KEY], (row) => {
      const data = cellJson(row.value);
      if (!isRecord(data)) return;
      for (const c of Array.isArray(data.allComposers) ? data.allComposers : [])
        if (isRecord(c) && typeof c.composerId === 'string') ids.push(c.composerId);
      for (const c of Array.isArray(data.selectedComposerIds) ? data.selectedComposerIds : [])
        if (typeof c === 'string') ids.push(c);
    });
  } catch {
    // damaged: what was listed so far
  } finally {
    image.close();
  }
  return ids;
}

/** A VS Code URI object (`fsPath`, `path`, `external`) as a path. */
export function uriPath(uri: Record<string, unknown>): string | undefined {
  if (typeof uri.fsPath === 'string' && uri.fsPath) return uri.fsPath;
  if (typeof uri.external === 'string') return uriToPath(uri.external);
  if (typeof uri.path === 'string' && uri.path) return uri.path;
  return undefined;
}

/** The deepest folder holding every path (a single file: its folder). */
export function commonFolder(paths: string[]): string | undefined {
  if (paths.length === 0) return undefined;
  const flavour = paths[0].includes('\\') ? win32 : posix;
  const split = paths.map((p) => flavour.dirname(p).split(flavour.sep));
  const first = split[0];
  let depth = 0;
  while (depth < first.length && split.every((parts) => parts[depth] === first[depth])) depth++;
  // Not a bare root (`/`, `C:`): that says nothing about the project.
  return depth >= 2 ? first.slice(0, depth).join(flavour.sep) : undefined;
}
