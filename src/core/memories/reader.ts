import type { RawMemory } from './items';
import type { MemoryAgent } from './types';

/**
 * A memory file an agent may have for the workspace: `project` when the agent keeps it for this folder alone, `global`
 * when one file serves every project (Codex's, Gemini's, Copilot's user memories): of a global file only the memories
 * that name this repository are candidates.
 */
export interface MemoryFileRef {
  path: string;
  scope: 'project' | 'global';
}

/** Where an agent keeps its memories, and how its files are cut into memories. One per agent format. */
export interface MemoryReader {
  agent: MemoryAgent;
  /**
   * The memory files this agent may have for the workspace, absolute. Folders are listed, never taken from a
   * memory's text: a path a memory names is not followed.
   */
  files(place: MemoryPlace, list: (dir: string) => Promise<string[]>): Promise<MemoryFileRef[]>;
  memories(text: string): { memories: RawMemory[]; tooLong: number };
}

export interface MemoryPlace {
  home: string;
  env: NodeJS.ProcessEnv;
  /** The workspace folder, absolute. */
  workspace: string;
}
