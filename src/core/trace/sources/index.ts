import type { AgentId } from '../model';
import { aiderReader } from './aider';
import { claudeCodeReader } from './claudeCode';
import { clineReader, rooCodeReader } from './clineRoo';
import { codexReader } from './codex';
import { continueReader } from './continueDev';
import { copilotReader } from './copilot';
import { cursorReader } from './cursor';
import { geminiCliReader } from './geminiCli';
import { openCodeReader } from './openCode';
import type { SourceReader } from './types';

/**
 * Every reader, in sniffing order (more specific formats first). Gemini CLI comes before Claude Code: a Gemini JSONL
 * log (`"sessionId"` then `"type":"user"` lines) also passes Claude's sniff, while Gemini's needs `"projectHash"`,
 * which no Claude or Codex record has.
 */
export const READERS: SourceReader[] = [
  geminiCliReader, claudeCodeReader, codexReader,
  copilotReader, clineReader, rooCodeReader, openCodeReader, continueReader, cursorReader, aiderReader,
];

export function readerFor(agent: AgentId): SourceReader | undefined {
  return READERS.find((reader) => reader.agent === agent);
}
