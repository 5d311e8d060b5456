import { z } from 'zod';
import { cleanName } from '../playbook/authorMark';
import { serializePlaybook } from '../playbook/markdown';
import { bullets, type Playbook } from '../playbook/model';
import type { BulletTag } from '../playbook/delta';
import { redactDeep } from '../secrets/deep';
import type { Trace } from '../trace/model';
import { redactText } from '../trace/redact';
import { sha256 } from '../util/hash';
import { inLearningOrder } from './order';
import { Reflection, type CallUsage, type Lesson, type Reflector, type RoleResult } from './types';

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

/** A lesson of a reflection set that this machine's store does not bear out: the rules drawn from it are flagged. */
export interface UnverifiedLesson {
  traceId: string;
  steps: number[];
  content: string;
  /** Why, in a sentence: what its cited steps do not show, or that its session is not here to look at. */
  reason: string;
}

export interface PrecomputedEntry {
  playbookSha: string;
  result: RoleResult<Reflection>;
  /** Its lessons the store does not bear out (kept in the reflection, to be flagged once they become rules). */
  unverified: UnverifiedLesson[];
}

/** Why the session does not bear out a lesson cited at these steps; undefined when it does. */
export type LessonCheck = (content: string, trace: Trace, steps: readonly number[]) => string | undefined;

/**
 * Reflection sets read back, keyed by session: each checked against its session and redacted again. With `verify`
 * (sets read from files, which anyone with the artifact could write), each lesson is also checked against the steps
 * it cites, as this machine stored them. `warn` hears what was left out or doubted.
 */
export function indexReflectionSets(
  sets: readonly ReflectionSet[],
  traces: readonly Trace[],
  expect: { provider: string; model: string },
  warn: (message: string) => void,
  verify?: LessonCheck,
  base?: Playbook,
): Map<string, PrecomputedEntry> {
  const byId = new Map(traces.map((t) => [t.id, t]));
  const index = new Map<string, PrecomputedEntry>();
  const rules = new Map(base ? bullets(base).map((b) => [b.id, b.content]) : []);
  for (const set of sets) {
    const where = set.shard ? `shard ${set.shard.index}/${set.shard.count}` : 'reflection set';
    if (set.provider !== expect.provider || set.model !== expect.model) {
      // the set's provider and model are its file's claim: compared, and shown cleaned, never taken as the author
      warn(
        `${where} was reflected by ${cleanName(set.provider)} (${cleanName(set.model)}), not ${expect.provider} (${expect.model}): its sessions are reflected again here`,
      );
      continue;
    }
    let unknown = 0;
    let unknownLessons = 0;
    let stepless = 0;
    let doubted = 0;
    let doubtedTags = 0;
    for (const entry of set.reflections) {
      const trace = byId.get(entry.traceId);
      if (!trace || entry.reflection.traceId !== entry.traceId) {
        unknown++;
        unknownLessons += entry.reflection.lessons.length;
        continue;
      }
      const checked = checkLessons(redactDeep(entry.reflection, redactText), trace, byId, verify);
      stepless += checked.stepless;
      doubted += checked.unverified.length;
      const tags = verify ? checkTags(checked.reflection.tags, trace, rules, verify) : undefined;
      doubtedTags += tags?.doubted ?? 0;
      index.set(entry.traceId, {
        playbookSha: set.playbookSha,
        result: {
          value: tags ? { ...checked.reflection, tags: tags.tags } : checked.reflection,
          usage: entry.usage as CallUsage,
          warnings: entry.warnings.map(redactText),
        },
        unverified: checked.unverified,
      });
    }
    if (unknown > 0)
      warn(
        `${where}: ${unknown} reflection(s) (${unknownLessons} lesson(s)) of sessions not among this run's sessions in this machine's store were ignored: nothing here can verify them`,
      );
    if (stepless > 0) warn(`${where}: ${stepless} lesson(s) citing no step of their session were dropped`);
    if (doubted > 0)
      warn(
        `${where}: ${doubted} lesson(s) are not borne out by this machine's store (what they name is not in their session or not in the steps they cite, or their session is not here): a rule that says what they say is flagged`,
      );
    if (doubtedTags > 0)
      warn(
        `${where}: ${doubtedTags} helpful or harmful tag(s) of rules on sessions that, as this machine stored them, show nothing the rule names were read as neutral: they add nothing to the counters`,
      );
    if (set.failed.length > 0)
      warn(`${where}: ${set.failed.length} session(s) failed to reflect there and are reflected again here`);
  }
  return index;
}

/**
 * A reflection's lessons against its session: steps past its end are cut, a lesson left citing none is dropped (as a
 * live reflection drops it). A lesson is doubted when the session it cites is not here to check, when `verify` finds
 * its cited steps do not show what it prescribes, or (with nothing to verify it) when it cites another session than
 * the one reflected on, which an honest map phase never does.
 */
function checkLessons(
  reflection: Reflection,
  trace: Trace,
  byId: ReadonlyMap<string, Trace>,
  verify: LessonCheck | undefined,
): { reflection: Reflection; unverified: UnverifiedLesson[]; stepless: number } {
  const lessons: Lesson[] = [];
  const unverified: UnverifiedLesson[] = [];
  let stepless = 0;
  for (const lesson of reflection.lessons) {
    const cited = byId.get(lesson.evidence.traceId);
    const steps = cited ? lesson.evidence.steps.filter((s) => s < cited.steps.length) : lesson.evidence.steps;
    if (steps.length === 0) {
      stepless++;
      continue;
    }
    const evidence = { traceId: lesson.evidence.traceId, steps };
    lessons.push({ ...lesson, evidence });
    const doubt = (reason: string) => unverified.push({ ...evidence, content: lesson.content, reason });
    if (!cited)
      doubt(
        `it cites session ${lesson.evidence.traceId}, which is not among this run's sessions in this machine's store, so it cannot be verified`,
      );
    else if (verify) {
      const gap = verify(lesson.content, cited, steps);
      if (gap) doubt(gap);
    } else if (cited.id !== trace.id) doubt(`it was reflected on session ${trace.id} but cites session ${cited.id}`);
  }
  return { reflection: { ...reflection, lessons }, unverified, stepless };
}

/**
 * A file's word that a session found a rule helpful or harmful counts only where that session, as stored here, shows
 * what the rule names (its commands, files, names): a tag costs nothing to write, a session's steps cannot be edited in
 * someone else's store. Any other tag stays, read as neutral.
 */
function checkTags(
  tags: readonly BulletTag[],
  trace: Trace,
  rules: ReadonlyMap<string, string>,
  verify: LessonCheck,
): { tags: BulletTag[]; doubted: number } {
  const everyStep = trace.steps.map((_, i) => i);
  let doubted = 0;
  const kept = tags.map((tag) => {
    const content = rules.get(tag.id);
    if ((tag.tag !== 'helpful' && tag.tag !== 'harmful') || content === undefined) return tag;
    const gap = verify(content, trace, everyStep);
    if (!gap) return tag;
    doubted++;
    return {
      id: tag.id,
      tag: 'neutral' as const,
      reason: 'read as neutral: the session, as stored here, shows nothing the rule names',
    };
  });
  return { tags: kept, doubted };
}

/** The precomputed reflection when it was made against this very playbook; else a live call. */
export class PrecomputedReflector implements Reflector {
  hits = 0;
  misses = 0;
  /** Doubted lessons of the reflections it handed out: only those can have become rules. */
  readonly unverified: UnverifiedLesson[] = [];
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
      for (const lesson of entry.unverified) if (!this.unverified.includes(lesson)) this.unverified.push(lesson);
      return entry.result;
    }
    this.misses++;
    return this.live.reflect(trace, playbook, signal);
  }
}
