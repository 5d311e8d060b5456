import { z } from 'zod';
import { serializePlaybook } from '../playbook/markdown';
import type { Playbook } from '../playbook/model';
import { redactDeep } from '../secrets/deep';
import type { Trace } from '../trace/model';
import { redactText } from '../trace/redact';
import { sha256 } from '../util/hash';
import { inLearningOrder } from './order';
import { Reflection, type CallUsage, type Reflector, type RoleResult } from './types';

// The map phase done elsewhere (a CI runner's shard, the provider's Batch API): reflections made against one frozen
// playbook, keyed by session. The learner takes one only for that playbook; any other call is made live.

export const REFLECTION_SET_FORMAT = 'combee-reflections';
export const REFLECTION_SET_VERSION = 1;

const Usage = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
  costUsd: z.number().nonnegative().optional(),
  retries: z.number().int().nonnegative().optional(),
  hedges: z.number().int().nonnegative().optional(),
});

export const ReflectionSet = z.object({
  format: z.literal(REFLECTION_SET_FORMAT),
  version: z.literal(REFLECTION_SET_VERSION),
  /** 1-based shard of how many, when it is one. */
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).optional(),
  /** sha256 of the frozen playbook every reflection here was made against. */
  playbookSha: z.string(),
  provider: z.string(),
  model: z.string(),
  /** The sessions this set was asked for (a shard's share of the run). */
  traceIds: z.array(z.string()),
  reflections: z.array(
    z.object({ traceId: z.string(), reflection: Reflection, usage: Usage, warnings: z.array(z.string()) }),
  ),
  /** Sessions whose reflection failed there: made again live. */
  failed: z.array(z.object({ traceId: z.string(), reason: z.string() })),
});
export type ReflectionSet = z.infer<typeof ReflectionSet>;

export function playbookSha(playbook: Playbook): string {
  return sha256(serializePlaybook(playbook));
}

/** A 1-based shard's share of the run's sessions: contiguous, in the order the learner batches them. */
export function shardOf<T extends Pick<Trace, 'id' | 'startedAt'>>(
  traces: readonly T[],
  index: number,
  count: number,
): T[] {
  const ordered = inLearningOrder(traces);
  const size = Math.ceil(ordered.length / count);
  return ordered.slice((index - 1) * size, index * size);
}

/** Reflects on each session against `playbook` (the map phase alone), `concurrency` at a time. */
export async function reflectAll(
  traces: readonly Trace[],
  playbook: Playbook,
  reflector: Reflector,
  about: { provider: string; model: string; shard?: { index: number; count: number } },
  concurrency: number,
  signal?: AbortSignal,
  onDone?: (done: number) => void,
): Promise<ReflectionSet> {
  const results: Array<ReflectionSet['reflections'][number] | { traceId: string; reason: string }> = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < traces.length) {
      const at = next++;
      const trace = traces[at];
      signal?.throwIfAborted();
      try {
        const result = await reflector.reflect(trace, playbook, signal);
        results[at] = { traceId: trace.id, reflection: result.value, usage: result.usage, warnings: result.warnings };
      } catch (error) {
        if (signal?.aborted) throw error;
        results[at] = { traceId: trace.id, reason: redactText((error as Error).message) };
      }
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, traces.length)) }, worker));
  return {
    format: REFLECTION_SET_FORMAT,
    version: REFLECTION_SET_VERSION,
    ...(about.shard ? { shard: about.shard } : {}),
    playbookSha: playbookSha(playbook),
    provider: about.provider,
    model: about.model,
    traceIds: traces.map((t) => t.id),
    reflections: results.filter((r) => 'reflection' in r),
    failed: results.filter((r) => 'reason' in r),
  };
}

export interface PrecomputedEntry {
  playbookSha: string;
  result: RoleResult<Reflection>;
}

/**
 * Reflection sets read back (from files anyone with the artifact could write): each checked against its session,
 * redacted again, then keyed by session. `warn` hears what was left out and why.
 */
export function indexReflectionSets(
  sets: readonly ReflectionSet[],
  traces: readonly Trace[],
  expect: { provider: string; model: string },
  warn: (message: string) => void,
): Map<string, PrecomputedEntry> {
  const byId = new Map(traces.map((t) => [t.id, t]));
  const index = new Map<string, PrecomputedEntry>();
  for (const set of sets) {
    const where = set.shard ? `shard ${set.shard.index}/${set.shard.count}` : 'reflection set';
    if (set.provider !== expect.provider || set.model !== expect.model) {
      warn(
        `${where} was reflected by ${set.provider} (${set.model}), not ${expect.provider} (${expect.model}): its sessions are reflected again here`,
      );
      continue;
    }
    let unknown = 0;
    for (const entry of set.reflections) {
      const trace = byId.get(entry.traceId);
      if (!trace || entry.reflection.traceId !== entry.traceId) {
        unknown++;
        continue;
      }
      const reflection = grounded(redactDeep(entry.reflection, redactText), trace);
      index.set(entry.traceId, {
        playbookSha: set.playbookSha,
        result: { value: reflection, usage: entry.usage as CallUsage, warnings: entry.warnings.map(redactText) },
      });
    }
    if (unknown > 0) warn(`${where}: ${unknown} reflection(s) of sessions not in this run were ignored`);
    if (set.failed.length > 0)
      warn(`${where}: ${set.failed.length} session(s) failed to reflect there and are reflected again here`);
  }
  return index;
}

/** Lessons whose evidence is this session's real steps (a set could name others'); the rest are dropped. */
function grounded(reflection: Reflection, trace: Trace): Reflection {
  const lessons = reflection.lessons
    .filter((l) => l.evidence.traceId === trace.id)
    .map((l) => ({
      ...l,
      evidence: { traceId: trace.id, steps: l.evidence.steps.filter((s) => s < trace.steps.length) },
    }))
    .filter((l) => l.evidence.steps.length > 0);
  return { ...reflection, lessons };
}

/** The precomputed reflection when it was made against this very playbook; else a live call. */
export class PrecomputedReflector implements Reflector {
  hits = 0;
  misses = 0;
  constructor(
    private readonly live: Reflector,
    private readonly entries: ReadonlyMap<string, PrecomputedEntry>,
  ) {}

  /** A batch's reflections all see one frozen playbook: hashed once, not once per session. */
  private last?: { playbook: Playbook; sha: string };

  private shaOf(playbook: Playbook): string {
    if (this.last?.playbook !== playbook) this.last = { playbook, sha: playbookSha(playbook) };
    return this.last.sha;
  }

  async reflect(trace: Trace, playbook: Playbook, signal?: AbortSignal): Promise<RoleResult<Reflection>> {
    const entry = this.entries.get(trace.id);
    if (entry && entry.playbookSha === this.shaOf(playbook)) {
      this.hits++;
      return entry.result;
    }
    this.misses++;
    return this.live.reflect(trace, playbook, signal);
  }
}
