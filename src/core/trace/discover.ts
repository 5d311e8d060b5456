import type { AgentId } from './model';
import { classifyFile, walkCandidates } from './scan';
import type { SessionFile } from './sources/types';

export interface DiscoverOptions {
  /** Force one agent's reader (`--agent`); default: sniff each file. */
  agent?: AgentId | 'auto';
  warn?: (message: string) => void;
}

/**
 * Finds session files under any folder: an agent's home (`.claude`, `.codex`), one of its sub-folders, or a loose
 * folder. The same walk and sniff as the importer's (scan.ts), with each file's agent resolved.
 */
export async function discoverSessions(root: string, options: DiscoverOptions = {}): Promise<SessionFile[]> {
  const found: SessionFile[] = [];
  for (const file of await walkCandidates(root, options)) {
    const agent = await classifyFile(file.path, options.agent);
    if (agent) found.push({ ...file, agent });
  }
  return found;
}
