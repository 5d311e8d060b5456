import { join } from 'node:path';
import { sectionText, splitMemories } from './items';
import type { MemoryReader } from './reader';

/** The section Gemini CLI's `save_memory` tool appends to. */
export const GEMINI_MEMORY_SECTION = 'Gemini Added Memories';

/**
 * Gemini CLI's saved memories: the `## Gemini Added Memories` section of its global `~/.gemini/GEMINI.md`
 * (GEMINI_CLI_HOME stands in for the home folder). The rest of that file is the user's own instructions, and a
 * repository's GEMINI.md is the team's: neither is an agent's memory.
 */
export const geminiCliMemories: MemoryReader = {
  agent: 'gemini-cli',
  async files({ env, home }, list) {
    const dir = join(env.GEMINI_CLI_HOME ?? home, '.gemini');
    // the user's global file: its memories are about any project
    return (await list(dir)).includes('GEMINI.md') ? [{ path: join(dir, 'GEMINI.md'), scope: 'global' }] : [];
  },
  memories(text) {
    const section = sectionText(text, GEMINI_MEMORY_SECTION);
    return section === undefined ? { memories: [], tooLong: 0 } : splitMemories(section);
  },
};
