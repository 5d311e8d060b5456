import type { AgentId } from '../model';

// A reader's version, bumped when it reads the same file into different traces (a field it now keeps, a record it
// now understands): the files it imported before are then read again in full, even unchanged, so the stored traces
// are what the reader makes of them today. Absent: version 1.

const READER_VERSIONS: Partial<Record<AgentId, number>> = {
  // queued messages, persisted tool outputs, inputs cut inside their JSON
  'claude-code': 2,
  // each call's folder, expanded prompts, Codex's own context markers
  codex: 2,
};

export function readerVersion(agent: string): number {
  return READER_VERSIONS[agent as AgentId] ?? 1;
}

/** Whether a file was imported by the reader as it is now (`reader` of its index entry). */
export function readByCurrentReader(entry: { agent: string; reader?: number }): boolean {
  return (entry.reader ?? 1) === readerVersion(entry.agent);
}
