import type { RawMemory } from './items';
import type { MemoryAgent } from './types';

/** Where an agent keeps its memories, and how its files are cut into memories. One per agent format. */
export interface MemoryReader {
  agent: MemoryAgent;
  /**
   * The memory files this agent may have for the workspace, absolute. Folders are listed, never taken from a
   * memory's text: a path a memory names is not followed.
   */
  files(place: MemoryPlace, list: (dir: string) => Promise<string[]>): Promise<string[]>;
  memories(text: string): { memories: RawMemory[]; tooLong: number };
}

export interface MemoryPlace {
  home: string;
  env: NodeJS.ProcessEnv;
  /** The workspace folder, absolute. */
  workspace: string;
}
