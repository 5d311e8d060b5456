import { join } from 'node:path';
import { splitMemories } from './items';
import type { MemoryFileRef, MemoryPlace, MemoryReader } from './reader';

/**
 * Claude Code's folder for a project under `projects/`: the project's path with every character other than a
 * letter or digit turned into `-` (`/home/me/shop` → `-home-me-shop`), as its session folders are named.
 */
export function claudeProjectFolder(workspace: string): string {
  return workspace.replace(/[^a-zA-Z0-9]/g, '-');
}

/** The config roots, as for its sessions: CLAUDE_CONFIG_DIR (comma-separated), else ~/.claude and ~/.config/claude. */
function claudeRoots({ env, home }: MemoryPlace): string[] {
  if (env.CLAUDE_CONFIG_DIR)
    return env.CLAUDE_CONFIG_DIR.split(',')
      .map((p) => p.trim())
      .filter(Boolean);
  return [join(home, '.claude'), join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'claude')];
}

/** Claude Code's auto memory: `projects/<project>/memory/MEMORY.md` (its index) and the topic files beside it. */
export const claudeCodeMemories: MemoryReader = {
  agent: 'claude-code',
  async files(place, list) {
    const out: MemoryFileRef[] = [];
    for (const root of claudeRoots(place)) {
      const dir = join(root, 'projects', claudeProjectFolder(place.workspace), 'memory');
      const names = (await list(dir)).filter((n) => n.toLowerCase().endsWith('.md'));
      // the index first, then the topic files by name
      names.sort((a, b) => (a === 'MEMORY.md' ? -1 : b === 'MEMORY.md' ? 1 : a < b ? -1 : a > b ? 1 : 0));
      out.push(...names.map((n) => ({ path: join(dir, n), scope: 'project' as const })));
    }
    return out;
  },
  memories: splitMemories,
};
