import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isBlockingIo, readRange } from '../util/io';
import type { AgentId } from './model';
import { READERS } from './sources';
import type { SourceReader } from './sources/types';

/** Folders of agent homes that never hold sessions (backups, caches, plugins). */
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'file-history',
  'shell-snapshots',
  'paste-cache',
  'todos',
  'debug',
  'statsig',
  'plugins',
]);
const STAT_BATCH = 64;

export interface FoundFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** Why a file an import saw was not imported: each is counted, with a few paths, never passed over in silence. */
export const SKIP_REASONS = [
  'not a session',
  'empty',
  'unreadable',
  'special file',
  'symbolic link loop',
  'folder named like a session',
  'too large',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * The files under `root` some reader accepts by name, with size and mtime: no file is opened, so a re-import
 * only sniffs files it has not seen in that state (`classifyFile`), and can do that in a worker.
 */
export async function walkCandidates(
  root: string,
  options: {
    agent?: AgentId | 'auto';
    warn?: (message: string) => void;
    skip?: (reason: SkipReason, path: string) => void;
    exclude?: string[];
  } = {},
): Promise<FoundFile[]> {
  const excluded = new Set(options.exclude ?? []);
  const readers =
    options.agent && options.agent !== 'auto' ? READERS.filter((r) => r.agent === options.agent) : READERS;
  const named = (path: string) => readers.some((r) => r.accepts(path));
  const blocking = isBlockingIo();
  const rootStat = await stat(root);
  if (rootStat.isFile()) return named(root) ? [{ path: root, bytes: rootStat.size, mtimeMs: rootStat.mtimeMs }] : [];
  const paths: string[] = [];
  // Folders by their real path: a symbolic link back up the tree is walked once, not forever.
  const visited = new Set<string>();
  const follow = async (path: string): Promise<Stats | undefined> => {
    try {
      return blocking ? statSync(path) : await stat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (named(path) || code === 'ELOOP') options.skip?.(code === 'ELOOP' ? 'symbolic link loop' : 'unreadable', path);
      return undefined;
    }
  };
  const walk = async (dir: string): Promise<void> => {
    let real: string;
    try {
      real = blocking ? realpathSync(dir) : await realpath(dir);
    } catch {
      real = dir;
    }
    if (visited.has(real)) {
      options.skip?.('symbolic link loop', dir);
      return;
    }
    visited.add(real);
    let entries: Dirent[];
    try {
      entries = blocking ? readdirSync(dir, { withFileTypes: true }) : await readdir(dir, { withFileTypes: true });
    } catch (error) {
      options.warn?.(`cannot read folder ${dir}: ${(error as Error).message}`);
      return;
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await follow(full);
        isDirectory = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
        if (!target) continue;
      }
      if (isDirectory) {
        if (excluded.has(full)) continue;
        if (named(full)) options.skip?.('folder named like a session', full);
        if (!SKIP_DIRS.has(entry.name)) subdirs.push(full);
      } else if (named(full)) {
        if (isFile) paths.push(full);
        else options.skip?.('special file', full);
      }
    }
    for (let i = 0; i < subdirs.length; i += STAT_BATCH) await Promise.all(subdirs.slice(i, i + STAT_BATCH).map(walk));
  };
  await walk(root);
  paths.sort();
  const found: FoundFile[] = [];
  if (blocking) {
    for (const path of paths) {
      try {
        const s = statSync(path);
        found.push({ path, bytes: s.size, mtimeMs: s.mtimeMs });
      } catch {
        // gone or unreadable since it was listed, as below
      }
    }
    return found;
  }
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    const batch = await Promise.all(
      paths.slice(i, i + STAT_BATCH).map((path) =>
        stat(path).then(
          (s) => ({ path, bytes: s.size, mtimeMs: s.mtimeMs }),
          () => undefined,
        ),
      ),
    );
    for (const file of batch) if (file) found.push(file);
  }
  return found;
}

/** Head sizes the readers sniff: most files tell within the first; a long first line (instructions) needs more. */
const SNIFF_BYTES = [8 * 1024, 64 * 1024];

/**
 * Sniffs one file: which agent's session it is, if any. The reader with evidence only it has wins over one that
 * merely recognizes the shape (sniffing order breaks ties). A head no reader recognizes (cut, damaged) still goes to
 * the agent that alone writes files of that name and place, whose reader then says what it could not read.
 */
export async function classifyFile(path: string, agent?: AgentId | 'auto'): Promise<AgentId | undefined> {
  const readers = (agent && agent !== 'auto' ? READERS.filter((r) => r.agent === agent) : READERS).filter((r) =>
    r.accepts(path),
  );
  if (readers.length === 0) return undefined;
  for (const bytes of SNIFF_BYTES) {
    const buffer = await readRange(path, 0, bytes);
    const found = strongestSniff(readers, path, buffer.toString('utf8'));
    if (found) return found.agent;
    if (buffer.length < bytes) break;
  }
  return readers.find((r) => r.claims?.(path))?.agent;
}

function strongestSniff(readers: SourceReader[], path: string, head: string): SourceReader | undefined {
  let shape: SourceReader | undefined;
  for (const reader of readers) {
    const evidence = reader.sniff(path, head);
    if (evidence === 'specific') return reader;
    if (evidence && !shape) shape = reader;
  }
  return shape;
}
