import { join } from 'node:path';
import { splitMemories } from './items';
import type { MemoryReader } from './reader';

/**
 * Codex's memories folder, `$CODEX_HOME/memories` (default ~/.codex): its durable entries (`MEMORY.md`) and the
 * summary it injects into prompts (`memory_summary.md`). One folder for every project, so the files are global: only
 * a memory that names this repository is a candidate here. The per-session rollout summaries are not lessons.
 */
export const codexMemories: MemoryReader = {
  agent: 'codex',
  async files({ env, home }, list) {
    const dir = join(env.CODEX_HOME ?? join(home, '.codex'), 'memories');
    const names = new Set(await list(dir));
    return ['MEMORY.md', 'memory_summary.md']
      .filter((n) => names.has(n))
      .map((n) => ({ path: join(dir, n), scope: 'global' as const }));
  },
  memories: splitMemories,
};
