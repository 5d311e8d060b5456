import type { AgentId } from '../model';
import { claudeCodeReader } from './claudeCode';
import { codexReader } from './codex';
import type { SourceReader } from './types';

/** Every reader, in sniffing order (more specific formats first). */
export const READERS: SourceReader[] = [claudeCodeReader, codexReader];

export function readerFor(agent: AgentId): SourceReader | undefined {
  return READERS.find((reader) => reader.agent === agent);
}
