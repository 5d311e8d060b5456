import { open, readdir } from 'node:fs/promises';
import { sep } from 'node:path';
import { createRedactor } from '../trace/redact';
import { screenText } from '../trust/screen';
import { sha256 } from '../util/hash';
import { claudeCodeMemories } from './claudeCode';
import { codexMemories } from './codex';
import { copilotMemories } from './copilot';
import { geminiCliMemories } from './geminiCli';
import type { MemoryPlace, MemoryReader } from './reader';
import type { MemoryAgent, MemoryItem } from './types';

/** One reader per agent format, in the order their memories are listed. */
export const MEMORY_READERS: readonly MemoryReader[] = [
  claudeCodeMemories,
  codexMemories,
  geminiCliMemories,
  copilotMemories,
];

/** A memory file larger than this is not an agent's notes: skipped with a warning. */
export const MAX_MEMORY_FILE_BYTES = 512 * 1024;

export interface ReadMemoriesResult {
  items: MemoryItem[];
  /** The files read, home shown as `~`. */
  files: string[];
  /** One line per file or memory left out, and per memory whose secrets were removed. */
  warnings: string[];
}

/** A folder's regular files by name (links and folders are not followed); none when it is missing or unreadable. */
async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Opened read-only, never written: its bytes and its modification time stay as they were. */
async function readSmallFile(path: string): Promise<string | 'too large' | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_MEMORY_FILE_BYTES) return 'too large';
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

function shownPath(path: string, home: string): string {
  return home && (path === home || path.startsWith(home + sep)) ? `~${path.slice(home.length)}` : path;
}

export function memoryId(agent: MemoryAgent, file: string, text: string): string {
  return `mem-${sha256(`${agent}\n${file}\n${text}`).slice(0, 10)}`;
}

/**
 * The agents' memories for a workspace: every memory redacted for secrets first, then screened as untrusted text.
 * Files are only read. The same files give the same items in the same order.
 */
export async function readAgentMemories(
  place: MemoryPlace,
  options: { extraRedactionPatterns?: string[]; readers?: readonly MemoryReader[] } = {},
): Promise<ReadMemoriesResult> {
  const redactor = createRedactor({ extraPatterns: options.extraRedactionPatterns });
  const items: MemoryItem[] = [];
  const files: string[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const reader of options.readers ?? MEMORY_READERS) {
    for (const path of await reader.files(place, listFiles)) {
      const file = shownPath(path, place.home);
      const text = await readSmallFile(path);
      if (text === undefined) continue;
      if (text === 'too large') {
        warnings.push(`${reader.agent} memory file ${file} is larger than ${MAX_MEMORY_FILE_BYTES} bytes: not read`);
        continue;
      }
      files.push(file);
      const { memories, tooLong } = reader.memories(text);
      if (tooLong > 0)
        warnings.push(`${tooLong} memory(ies) of ${file} are longer than a lesson (a pasted document?): left out`);
      for (const memory of memories) {
        const before = redactor.count;
        const clean = redactor.redact(memory.text);
        const redacted = redactor.count > before;
        // the same memory twice (an index repeating a topic file, a summary repeating its entries) is one
        const key = `${reader.agent}\n${clean.toLowerCase()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (redacted) warnings.push(`a secret was removed from the memory at ${file}:${memory.line}`);
        items.push({
          id: memoryId(reader.agent, file, clean),
          agent: reader.agent,
          file,
          line: memory.line,
          text: clean,
          redacted,
          flags: screenText(clean),
        });
      }
    }
  }
  return { items, files, warnings };
}
