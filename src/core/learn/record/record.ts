import { z } from 'zod';
import { BATCH_MODES, type BatchMode } from './batchMode';
import { LEGACY_BATCH_MODES, modeOfStoredBatch } from './legacyModes';
import { NODE_KINDS, NODE_STATUSES } from './nodeKinds';
import { BulletTag } from '../../playbook/delta';

export const RUN_RECORD_VERSION = 1;

export const NodeKind = z.enum(NODE_KINDS);
export type NodeKind = z.infer<typeof NodeKind>;

const ListedItem = z.object({
  label: z.string(),
  text: z.string(),
  sessions: z.number().int(),
  reason: z.string().optional(),
});

/**
 * What an aggregation call did with the items it was given (see learn/record/callItems.ts): each item kept, merged, rejected
 * with a reason, or dropped; whether the drops were overload (the dropped items redone in smaller calls) or not.
 */
export const CallItems = z.object({
  in: z.number().int(),
  kept: z.number().int(),
  merged: z.number().int(),
  rejected: z.number().int(),
  dropped: z.number().int(),
  /** The prompt's size as the plan measures it (tokens). */
  loadTokens: z.number().int().optional(),
  /** The drops were overload: they were sent again in `redone` smaller calls. */
  overloaded: z.boolean().optional(),
  redone: z.number().int().optional(),
  /** Dropped items from two or more sessions, passed on in code (never dropped without a reason). */
  carried: z.number().int().optional(),
  /** This call sends again what call `redoOf` dropped. */
  redoOf: z.string().optional(),
  /** The dropped and rejected items, the first few of each. */
  droppedItems: z.array(ListedItem).optional(),
  rejectedItems: z.array(ListedItem).optional(),
});
export type CallItems = z.infer<typeof CallItems>;

export const RunNode = z.object({
  id: z.string(),
  kind: NodeKind,
  batch: z.number().int(),
  /** Aggregation level for group/local/global nodes (1 = over reflections). */
  level: z.number().int().optional(),
  label: z.string(),
  parents: z.array(z.string()),
  status: z.enum(NODE_STATUSES),
  latencyMs: z.number().optional(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  costUsd: z.number().optional(),
  /** The call was sent again (after an error or an invalid answer), or a second copy was sent while it hung. */
  retries: z.number().int().optional(),
  hedges: z.number().int().optional(),
  /** Aggregation calls: what became of the items given. */
  items: CallItems.optional(),
  /** Kind-specific payload: lessons of a reflection, ops of a delta, applied ops. */
  detail: z.unknown().optional(),
});
export type RunNode = z.infer<typeof RunNode>;

/** How a batch's scan was cut into calls, and why (see plan.ts). */
export const BatchPlan = z.object({
  kind: z.enum(['sqrt', 'capacity']),
  /** The effective capacity every call was planned to fit. */
  budgetTokens: z.number().int().optional(),
  /** The budget of the higher levels, when the batch's local calls showed less than the local calls were planned to. */
  higherBudgetTokens: z.number().int().optional(),
  /** The capacity the model showed in earlier calls, when below the setting (the budget then). */
  learnedTokens: z.number().int().optional(),
  /** The largest prompt the plan sent (tokens, counted with the tokenizer). */
  largestCallTokens: z.number().int().optional(),
  reason: z.string(),
  /** Operations merged in code into an earlier one (the same lesson) before a higher level. */
  mergedInCode: z.number().int(),
});
export type BatchPlan = z.infer<typeof BatchPlan>;

const StoredBatchRecord = z.object({
  index: z.number().int(),
  traceIds: z.array(z.string()),
  /** How the batch's delta was really made (see batchMode.ts); records written before may hold a legacy mode. */
  mode: z.enum([...BATCH_MODES, ...LEGACY_BATCH_MODES]),
  k: z.number().int(),
  levels: z.number().int(),
  groups: z.array(z.array(z.number().int())),
  /** Records written before plans were recorded have none. */
  plan: BatchPlan.optional(),
  wallMs: z.number(),
  /** Helpful / harmful tags applied to existing rules in this batch, as ACE counts them (runs before the ledger). */
  tags: z.array(z.object({ id: z.string(), tag: BulletTag.shape.tag })).default([]),
  /** Each session's word on each rule it had in play, and whether it was counted (runs with the evidence ledger). */
  evidence: z
    .array(
      z.object({
        id: z.string(),
        traceId: z.string(),
        tag: BulletTag.shape.tag,
        counted: z.boolean(),
        reason: z.string().optional(),
        steps: z.array(z.number().int().nonnegative()).optional(),
        fix: z.object({ ran: z.string(), then: z.string() }).optional(),
        correction: z.string().optional(),
      }),
    )
    .optional(),
});
export type BatchRecord = Omit<z.infer<typeof StoredBatchRecord>, 'mode'> & { mode: BatchMode };

export const ControllerRecord = z.object({
  profiled: z.array(z.object({ batchSize: z.number().int(), delayMs: z.number(), epochMs: z.number() })),
  fit: z.object({ A: z.number(), alpha: z.number(), r2: z.number() }).optional(),
  tau: z.number().optional(),
  unclamped: z.number().optional(),
  chosen: z.number().int(),
  reason: z.string(),
});
export type ControllerRecord = z.infer<typeof ControllerRecord>;

const StoredRunRecord = z.object({
  version: z.literal(RUN_RECORD_VERSION),
  id: z.string(),
  workspace: z.string(),
  startedAt: z.string(),
  endedAt: z.string(),
  status: z.enum(['completed', 'cancelled', 'stopped', 'failed']),
  provider: z.string(),
  model: z.string(),
  strategy: z.enum(['combee', 'naive', 'sequential']),
  seed: z.number().int(),
  duplication: z.number().int(),
  batchSize: z.number().int(),
  /** The dynamic batch-size controller's decision (batch size `auto`). */
  controller: ControllerRecord.optional(),
  totals: z.object({
    traces: z.number().int(),
    reflections: z.number().int(),
    lessons: z.number().int(),
    calls: z.number().int(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number(),
    wallMs: z.number(),
    applied: z.number().int(),
    skipped: z.number().int(),
  }),
  batches: z.array(StoredBatchRecord),
  nodes: z.array(RunNode),
  warnings: z.array(z.string()),
  /** The tree laid out once, when the run was recorded (layout.ts); older records have none. */
  layout: z
    .object({
      positions: z.array(z.number()),
      bends: z.array(z.array(z.number())),
      bands: z.array(z.array(z.number())),
      width: z.number(),
      height: z.number(),
    })
    .optional(),
});
/** The aggregation tree of one run: written once by the learner, read by the webview and `combee tree`. */
export const RunRecord = StoredRunRecord.transform((stored) => ({
  ...stored,
  batches: stored.batches.map((batch): BatchRecord => ({ ...batch, mode: modeOfStoredBatch(batch, stored.nodes) })),
}));
export type RunRecord = z.output<typeof RunRecord>;
