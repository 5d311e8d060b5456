import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ReflectionSet, REFLECTION_SET_FORMAT } from '../../core/learn/reflectionSet';
import { atomicWrite } from '../../core/util/io';
import type { learnWorkspace } from '../../core/service/learnWorkspace';
import { UsageError } from '../args';
import type { Output } from '../output';

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

/** The map phase's end: its reflections written for the reduce, and what it did. */
export async function reportMapPhase(
  result: Awaited<ReturnType<typeof learnWorkspace>>,
  folder: string,
  json: boolean,
  out: Output,
): Promise<number> {
  const set = result.reflections;
  if (!set) {
    // no session to reflect on: nothing for the reduce from this shard, and that is no failure
    if (json) out.result(JSON.stringify({ shard: null, sessions: 0, reflected: 0, failed: [], file: null }, null, 2));
    else
      out.result(
        `No new sessions for ${result.traces.length === 0 ? 'this workspace' : 'this shard'}: no reflections written.`,
      );
    return 0;
  }
  const path = await writeReflectionSet(folder, set);
  const where = set.shard ? `shard ${set.shard.index}/${set.shard.count}` : 'all sessions';
  if (json)
    out.result(
      JSON.stringify(
        {
          shard: set.shard ?? null,
          sessions: set.traceIds.length,
          reflected: set.reflections.length,
          failed: set.failed,
          file: path,
          playbookSha: set.playbookSha,
        },
        null,
        2,
      ),
    );
  else {
    for (const f of set.failed) out.warn(`session ${f.traceId} was not reflected: ${f.reason}`);
    out.result(
      `Reflected on ${set.reflections.length} of ${set.traceIds.length} session(s) (${where}) with ${set.provider} (${set.model}); wrote ${path}. Learn from the shards with: combee learn --reduce <folder>…`,
    );
  }
  // a failed reflection is made again by the reduce: the map phase itself did not fail
  return 0;
}
