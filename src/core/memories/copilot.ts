import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSourceFolders } from '../trace/locations';
import { isRecord } from '../trace/sources/common';
import { splitMemories } from './items';
import type { MemoryFileRef, MemoryReader } from './reader';

/** Copilot Chat's folder in an editor's storage: the workspace one and the global one are spelled differently. */
const EXTENSION_FOLDERS = ['GitHub.copilot-chat', 'github.copilot-chat'];
const MEMORY_PATH = ['memory-tool', 'memories'];
/** A workspace.json is a line of JSON: anything this big is not one. */
const MAX_WORKSPACE_JSON_BYTES = 64 * 1024;

async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Whether a window's `workspace.json` names this very folder: a single-folder window (`folder`, not a multi-root
 * `workspace`) whose URI has the `file` scheme, no authority (an SSH-remote or WSL window names another machine's
 * folder by the same path) and this path.
 */
export async function windowIsWorkspace(storageDir: string, workspace: string): Promise<boolean> {
  let json: unknown;
  try {
    const file = join(storageDir, 'workspace.json');
    if ((await stat(file)).size > MAX_WORKSPACE_JSON_BYTES) return false;
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return false;
  }
  if (!isRecord(json) || typeof json.folder !== 'string') return false;
  try {
    const uri = new URL(json.folder);
    if (uri.protocol !== 'file:' || uri.host !== '') return false;
    const fold = (p: string) => (process.platform === 'win32' || process.platform === 'darwin' ? p.toLowerCase() : p);
    return fold(resolve(fileURLToPath(uri))) === fold(resolve(workspace));
  } catch {
    return false;
  }
}

/**
 * VS Code Copilot Chat's memory tool: the repository memories of the window that had this workspace open
 * (`<User>/workspaceStorage/<id>/GitHub.copilot-chat/memory-tool/memories/repo/*.md`, the window found by its
 * `workspace.json`) and the user's memories (`<User>/globalStorage/github.copilot-chat/memory-tool/memories/*.md`,
 * global: about any project). The per-session folders beside `repo/` hold plans of one chat, not lessons. Copilot
 * Memory on GitHub's side has no local copy.
 */
export const copilotMemories: MemoryReader = {
  agent: 'copilot',
  async files({ env, home, workspace }, list) {
    const out: MemoryFileRef[] = [];
    const storages = defaultSourceFolders(env, home)
      .filter((f) => f.agent === 'copilot' && f.path.endsWith('workspaceStorage'))
      .map((f) => f.path);
    const add = async (dir: string, scope: MemoryFileRef['scope']) => {
      for (const n of await list(dir)) if (n.endsWith('.md')) out.push({ path: join(dir, n), scope });
    };
    for (const storage of storages) {
      for (const id of await subfolders(storage)) {
        if (!(await windowIsWorkspace(join(storage, id), workspace))) continue;
        for (const extension of EXTENSION_FOLDERS)
          await add(join(storage, id, extension, ...MEMORY_PATH, 'repo'), 'project');
      }
      const user = dirname(storage);
      for (const extension of EXTENSION_FOLDERS)
        await add(join(user, 'globalStorage', extension, ...MEMORY_PATH), 'global');
    }
    // one file reached by both spellings (a case-insensitive disk) is read once
    const seen = new Set<string>();
    return out.filter((f) => !seen.has(f.path) && (seen.add(f.path), true));
  },
  memories: splitMemories,
};
