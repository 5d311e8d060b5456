import type { AgentId } from '../model';
import { aiderReader } from './aider';
import { claudeCodeReader } from './claudeCode';
import { clineReader, rooCodeReader } from './clineRoo';
import { codexReader } from './codex';
import { continueReader } from './continueDev';
import { copilotReader } from './copilot';
import { cursorReader } from './cursor';
import { cursorDbReader } from './cursorDb';
import { geminiCliReader } from './geminiCli';
import { openCodeReader } from './openCode';
import { openCodeDbReader } from './openCodeDb';
import { specStoryReader } from './specStory';
import type { SourceReader } from './types';

/**
 * One agent's formats behind one reader, since the importer finds a file's reader by its agent. Each file goes to
 * the first reader that accepts its name (Cursor: transcripts `.jsonl` / `state.vscdb`; OpenCode: `ses_*.json` /
 * `opencode.db`).
 */
function byName(...readers: [SourceReader, ...SourceReader[]]): SourceReader {
  const pick = (path: string) => readers.find((r) => r.accepts(path));
  return {
    agent: readers[0].agent,
    version: Math.max(...readers.map((r) => r.version ?? 1)),
    accepts: (path) => pick(path) !== undefined,
    sniff: (path, head) => pick(path)?.sniff(path, head) ?? false,
    claims: (path) => pick(path)?.claims?.(path) ?? false,
    read: (file, ctx) => (pick(file.path) ?? readers[0]).read(file, ctx),
  };
}

/**
 * Every reader, in sniffing order (more specific formats first). Gemini CLI comes before Claude Code: a Gemini JSONL
 * log (`"sessionId"` then `"type":"user"` lines) also passes Claude's sniff, while Gemini's needs `"projectHash"`,
 * which no Claude or Codex record has. A SpecStory history (`.specstory/history/*.md`) goes to the agent its head
 * names, read by that agent's SpecStory reader.
 */
export const READERS: SourceReader[] = [
  byName(geminiCliReader, specStoryReader('gemini-cli')),
  byName(claudeCodeReader, specStoryReader('claude-code')),
  byName(codexReader, specStoryReader('codex')),
  byName(copilotReader, specStoryReader('copilot')),
  clineReader,
  rooCodeReader,
  byName(openCodeReader, openCodeDbReader),
  continueReader,
  byName(cursorReader, cursorDbReader, specStoryReader('cursor')),
  aiderReader,
];

export function readerFor(agent: AgentId): SourceReader | undefined {
  return READERS.find((reader) => reader.agent === agent);
}

/** The version of an agent's reader (see `SourceReader.version`). */
export function readerVersion(agent: string): number {
  return READERS.find((reader) => reader.agent === agent)?.version ?? 1;
}

/** Whether a file's index entry was written by the agent's current reader (absent version: 1). */
export function readByCurrentReader(entry: { agent: string; readerVersion?: number }): boolean {
  return (entry.readerVersion ?? 1) === readerVersion(entry.agent);
}
