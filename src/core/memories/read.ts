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
import { namesRepository, repositoryNames } from './scope';
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
/** All memory files together: past this, the files left are not read (many files each under the cap add up). */
export const MAX_MEMORY_TOTAL_BYTES = 2 * 1024 * 1024;

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
async function readSmallFile(path: string, budget: number): Promise<string | 'too large' | 'over budget' | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_MEMORY_FILE_BYTES) return 'too large';
    if (stat.size > budget) return 'over budget';
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
  const items: MemoryItem[] = [];
  const files: string[] = [];
  const warnings: string[] = [];
  const redactor = createRedactor({ extraPatterns: options.extraRedactionPatterns }, (source, error) =>
    warnings.push(`invalid redaction pattern ${JSON.stringify(source)}: ${error}`),
  );
  const seen = new Set<string>();
  const names = repositoryNames(place.workspace);
  let budget = MAX_MEMORY_TOTAL_BYTES;
  for (const reader of options.readers ?? MEMORY_READERS) {
    for (const { path, scope } of await reader.files(place, listFiles)) {
      const file = shownPath(path, place.home);
      const text = await readSmallFile(path, budget);
      if (text === undefined) continue;
      if (text === 'too large') {
        warnings.push(`${reader.agent} memory file ${file} is larger than ${MAX_MEMORY_FILE_BYTES} bytes: not read`);
        continue;
      }
      if (text === 'over budget') {
        warnings.push(
          `${reader.agent} memory file ${file} is past the ${MAX_MEMORY_TOTAL_BYTES} bytes read of all memory files: not read`,
        );
        continue;
      }
      budget -= Buffer.byteLength(text, 'utf8');
      files.push(file);
      const { memories, tooLong } = reader.memories(text);
      if (tooLong > 0)
        warnings.push(`${tooLong} memory(ies) of ${file} are longer than a lesson (a pasted document?): left out`);
      // a file for every project: only what names this repository is this repository's memory
      const mine = scope === 'project' ? memories : memories.filter((m) => namesRepository(m, names));
      if (mine.length < memories.length)
        warnings.push(
          `${memories.length - mine.length} memory(ies) of ${file} (kept for every project) do not name this repository: not candidates here`,
        );
      for (const memory of mine) {
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
          scope,
          text: clean,
          redacted,
          flags: screenText(clean),
        });
      }
    }
  }
  return { items, files, warnings };
}
