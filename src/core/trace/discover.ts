import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentId } from './model';
import { READERS } from './sources';
import type { SessionFile, SourceReader } from './sources/types';

const SKIP_DIRS = new Set(['node_modules', '.git', 'file-history', 'shell-snapshots', 'paste-cache', 'todos', 'debug', 'statsig', 'plugins']);
const SNIFF_BYTES = 64 * 1024;

export interface DiscoverOptions {
  /** Force one agent's reader (`--agent`); default: sniff each file. */
  agent?: AgentId | 'auto';
  warn?: (message: string) => void;
}

/** Finds session files under any folder: an agent's home (`.claude`, `.codex`), one of its sub-folders, or a loose folder. */
export async function discoverSessions(root: string, options: DiscoverOptions = {}): Promise<SessionFile[]> {
  const readers = options.agent && options.agent !== 'auto' ? READERS.filter((r) => r.agent === options.agent) : READERS;
  const found: SessionFile[] = [];
  const rootStat = await stat(root);
  if (rootStat.isFile()) {
    const file = await classify(root, readers);
    return file ? [file] : [];
  }
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      options.warn?.(`cannot read folder ${dir}: ${(error as Error).message}`);
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) await walk(full);
      } else if (entry.isFile()) {
        const file = await classify(full, readers);
        if (file) found.push(file);
      }
    }
  };
  await walk(root);
  return found;
}

async function classify(path: string, readers: SourceReader[]): Promise<SessionFile | undefined> {
  const candidates = readers.filter((r) => r.accepts(path));
  if (candidates.length === 0) return undefined;
  const head = await readHead(path);
  const reader = candidates.find((r) => r.sniff(path, head));
  if (!reader) return undefined;
  const info = await stat(path);
  return { path, agent: reader.agent, bytes: info.size, mtimeMs: info.mtimeMs };
}

async function readHead(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
