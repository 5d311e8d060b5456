import { z } from 'zod';
import { BulletTag, Delta, Evidence, LessonKind } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';

export const Lesson = z.object({
  section: z.string().min(1),
  content: z.string().min(1),
  kind: LessonKind,
  evidence: Evidence,
  scope: z.string().optional(),
  key: z.string().optional(),
  /** Sessions that must show this lesson before it becomes a rule (co-changed files need two). */
  minSupport: z.number().int().min(1).optional(),
});
export type Lesson = z.infer<typeof Lesson>;

/** The map step's output for one trace, made against the frozen playbook of its batch. */
export const Reflection = z.object({ traceId: z.string(), lessons: z.array(Lesson), tags: z.array(BulletTag) });
export type Reflection = z.infer<typeof Reflection>;

export type Strategy = 'combee' | 'naive' | 'sequential';

export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  costUsd?: number;
  /** Requests sent again (errors, an invalid answer) and second copies sent while waiting (hedges). */
  retries?: number;
  hedges?: number;
  /** Nothing to send (no lesson, no operation): no call was made, and none is counted. */
  notSent?: true;
}

export interface RoleResult<T> {
  value: T;
  usage: CallUsage;
  warnings: string[];
}

export type AggregationLevel = 'single' | 'local' | 'global';

export interface AggregationInput {
  level: AggregationLevel;
  reflections: Reflection[];
  /** Deltas from the level below (global and higher levels). */
  deltas: Delta[];
}

/**
 * What an aggregator says about its model so that no call overloads it: how many tokens one call's prompt may hold
 * (an effective capacity, well below the context window: models lose items long before the window is full), and
 * how many a given input's real prompt takes (counted with the tokenizer).
 */
export interface AggregationCapacity {
  budgetTokens: number;
  measure(input: AggregationInput, playbook: Playbook): number;
  /**
   * The most one answer may hold, and what an input's answer takes when none of its items merge: a call of more
   * distinct items than its answer holds is cut off however large the model's context.
   */
  answer?: { limitTokens: number; estimate(input: AggregationInput): number };
}

/** A delta and the node of the tree that holds it. */
export interface NodeDelta {
  delta: Delta;
  nodeId: string;
  /** The calls that sent again what that node's call dropped: their operations are in the delta too. */
  redoNodes?: string[];
}

/** Where an item of an aggregation call came from: lesson `lesson` of reflection `reflection`, or op `op` of delta `delta`. */
export type ItemRef = { reflection: number; lesson: number } | { delta: number; op: number };

/**
 * What a call did with one item it was given: kept (an operation cites it alone), merged (an operation cites it with
 * others, or it repeats an item that was), rejected (the answer says why), or dropped (none of these: lost).
 */
export type ItemFate = 'kept' | 'merged' | 'rejected' | 'dropped';

export interface ItemOutcome {
  ref: ItemRef;
  label: string;
  text: string;
  /** Distinct sessions behind the item. */
  sessions: number;
  fate: ItemFate;
  /** A rejection's reason. */
  reason?: string;
}

/** An aggregation's delta, and what became of each item it was given (aggregators that label their items). */
export interface AggregationResult extends RoleResult<Delta> {
  items?: ItemOutcome[];
}

/** Reflects on one trace. Implementations: the offline miner, an LLM prompt. */
export interface Reflector {
  reflect(trace: Trace, playbook: Playbook, signal?: AbortSignal): Promise<RoleResult<Reflection>>;
}

/** Aggregates reflections (or lower-level deltas) into one delta against the frozen playbook. */
export interface Aggregator {
  aggregate(input: AggregationInput, playbook: Playbook, signal?: AbortSignal): Promise<AggregationResult>;
  /** A model's limit, which the scan plans every call to fit; none (the offline aggregator): the √n plan. */
  readonly capacity?: AggregationCapacity;
}

export interface ProviderInfo {
  provider: 'offline' | 'openai' | 'vscode';
  model: string;
}

/** Embeddings, where the provider has them: semantic duplicate detection on top of the lexical one. */
export type EmbedFn = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;
