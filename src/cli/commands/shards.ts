import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ReflectionSet, REFLECTION_SET_FORMAT } from '../../core/learn/reflectionSet';
import { atomicWrite } from '../../core/util/io';
import { UsageError } from '../args';

/** A map phase's reflections are a few KB per session; a file far larger is not one. */
const MAX_SET_BYTES = 512 * 1024 * 1024;

/** `--shard 2/3` → { index: 2, count: 3 } (1-based, as a CI matrix numbers its jobs). */
export function parseShard(value: string | boolean | undefined): { index: number; count: number } | undefined {
  if (value === undefined) return undefined;
  const m = typeof value === 'string' ? /^(\d+)\/(\d+)$/.exec(value) : null;
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new UsageError('--shard must be <i>/<n> with 1 ≤ i ≤ n (for example 2/3)');
  return { index, count };
}

export function shardFileName(set: ReflectionSet): string {
  return set.shard ? `reflections-${set.shard.index}-of-${set.shard.count}.json` : 'reflections.json';
}

export async function writeReflectionSet(folder: string, set: ReflectionSet): Promise<string> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, shardFileName(set));
  await atomicWrite(path, `${JSON.stringify(set)}\n`);
  return path;
}

/**
 * Every reflection set under the folders (CI artifacts land one folder each, so two levels down are searched). A
 * file that is not one, or not valid, is a counted warning; the sessions it would have covered are reflected live.
 */
export async function readReflectionSets(
  folders: readonly string[],
  warn: (message: string) => void,
): Promise<ReflectionSet[]> {
  const sets: ReflectionSet[] = [];
  const files: string[] = [];
  for (const folder of folders) {
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw new UsageError(`--reduce: no such folder: ${folder}`);
    await collect(folder, 2, files);
  }
  for (const file of files.sort()) {
    const size = (await stat(file)).size;
    if (size > MAX_SET_BYTES) {
      warn(`${file}: ${size} bytes, too large to be a reflection set; skipped`);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      warn(`${file}: not JSON (${(error as Error).message}); skipped`);
      continue;
    }
    if ((json as { format?: unknown } | null)?.format !== REFLECTION_SET_FORMAT) continue;
    const parsed = ReflectionSet.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      warn(`${file}: not a valid reflection set (${issue.path.join('.') || 'root'}: ${issue.message}); skipped`);
      continue;
    }
    sets.push(parsed.data);
  }
  return sets;
}

async function collect(folder: string, depth: number, into: string[]): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isFile() && entry.name.endsWith('.json')) into.push(path);
    else if (entry.isDirectory() && depth > 0) await collect(path, depth - 1, into);
  }
}
