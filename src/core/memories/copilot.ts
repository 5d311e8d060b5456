import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { defaultSourceFolders } from '../trace/locations';
import { workspaceJsonFolder } from '../trace/sources/vscodeWorkspace';
import { splitMemories } from './items';
import type { MemoryReader } from './reader';

/** Copilot Chat's folder in an editor's storage: the workspace one and the global one are spelled differently. */
const EXTENSION_FOLDERS = ['GitHub.copilot-chat', 'github.copilot-chat'];
const MEMORY_PATH = ['memory-tool', 'memories'];

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
 * VS Code Copilot Chat's memory tool: the repository memories of the window that had this workspace open
 * (`<User>/workspaceStorage/<id>/GitHub.copilot-chat/memory-tool/memories/repo/*.md`, the window found by its
 * `workspace.json`) and the user's memories (`<User>/globalStorage/github.copilot-chat/memory-tool/memories/*.md`).
 * The per-session folders beside `repo/` hold plans of one chat, not lessons. Copilot Memory on GitHub's side has
 * no local copy.
 */
export const copilotMemories: MemoryReader = {
  agent: 'copilot',
  async files({ env, home, workspace }, list) {
    const out: string[] = [];
    const storages = defaultSourceFolders(env, home)
      .filter((f) => f.agent === 'copilot' && f.path.endsWith('workspaceStorage'))
      .map((f) => f.path);
    for (const storage of storages) {
      for (const id of await subfolders(storage)) {
        if ((await workspaceJsonFolder(join(storage, id))) !== workspace) continue;
        for (const extension of EXTENSION_FOLDERS) {
          const dir = join(storage, id, extension, ...MEMORY_PATH, 'repo');
          out.push(...(await list(dir)).filter((n) => n.endsWith('.md')).map((n) => join(dir, n)));
        }
      }
      const user = dirname(storage);
      for (const extension of EXTENSION_FOLDERS) {
        const dir = join(user, 'globalStorage', extension, ...MEMORY_PATH);
        out.push(...(await list(dir)).filter((n) => n.endsWith('.md')).map((n) => join(dir, n)));
      }
    }
    // one file reached by both spellings (a case-insensitive disk) is read once
    return [...new Set(out)];
  },
  memories: splitMemories,
};
