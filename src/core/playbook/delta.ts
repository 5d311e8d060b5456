import { z } from 'zod';

/** Where a lesson comes from: a trace and the steps in it that show the lesson. */
export const Evidence = z.object({ traceId: z.string(), steps: z.array(z.number().int().nonnegative()) });
export type Evidence = z.infer<typeof Evidence>;

export const LessonKind = z.enum(['rule', 'pitfall', 'procedure', 'preference']);
export type LessonKind = z.infer<typeof LessonKind>;

const common = {
  /** Traces that support this change (after duplicates are merged). */
  support: z.array(Evidence),
  /** A stable grouping key when the producer has one (the offline miner does): equal keys are the same lesson. */
  key: z.string().optional(),
};

export const AddOp = z.object({
  op: z.literal('ADD'),
  section: z.string().min(1),
  content: z.string().min(1),
  kind: LessonKind.optional(),
  /** A workspace-relative folder the rule applies to (nested AGENTS.md). */
  scope: z.string().optional(),
  /** Distinct sessions that must support this ADD before it is applied. */
  minSupport: z.number().int().min(1).optional(),
  /** The id to use when it is free: keeps a rule's id stable when a proposal is re-rendered after a partial accept. */
  id: z.string().optional(),
  ...common,
});
export const UpdateOp = z.object({
  op: z.literal('UPDATE'),
  id: z.string(),
  content: z.string().min(1),
  /** The new content says another thing (a correction replacing a harmful rule): its counters start again at 0. */
  resetCounters: z.boolean().optional(),
  ...common,
});
export const MergeOp = z.object({
  op: z.literal('MERGE'),
  ids: z.array(z.string()).min(2),
  content: z.string().min(1),
  ...common,
});
export const RemoveOp = z.object({ op: z.literal('REMOVE'), id: z.string(), reason: z.string(), ...common });
export const DeltaOp = z.discriminatedUnion('op', [AddOp, UpdateOp, MergeOp, RemoveOp]);
export type DeltaOp = z.infer<typeof DeltaOp>;
export type AddOp = z.infer<typeof AddOp>;

/** What one session says of a rule it had in play; `violated`: the agent did what the rule says not to. */
export const BulletTag = z.object({
  id: z.string(),
  tag: z.enum(['helpful', 'harmful', 'neutral', 'violated']),
  reason: z.string().optional(),
});
export type BulletTag = z.infer<typeof BulletTag>;

/** Counter increments of one rule: each session's evidence counted once (see learn/rules/ruleCounting.ts). */
export const RuleCount = z.object({
  id: z.string(),
  helpful: z.number().int().nonnegative(),
  harmful: z.number().int().nonnegative(),
});
export type RuleCount = z.infer<typeof RuleCount>;

/**
 * `tags` count as ACE counts them: the last tag of a rule in a delta adds one. `counts` are increments already
 * counted per session (a run made with the evidence ledger puts its counting there and leaves `tags` empty).
 */
export const Delta = z.object({
  ops: z.array(DeltaOp),
  tags: z.array(BulletTag),
  counts: z.array(RuleCount).optional(),
});
export type Delta = z.infer<typeof Delta>;

export const EMPTY_DELTA: Delta = { ops: [], tags: [] };
