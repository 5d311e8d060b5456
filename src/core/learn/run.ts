import { randomUUID } from 'node:crypto';
import { layoutRun, storeLayout, type StoredLayout } from './record/layout';
import { liveSnapshots, type LiveRunSnapshot } from './record/liveRun';
import type { Aggregator, EmbedFn, NodeDelta, ProviderInfo, Reflector, Strategy } from './types';
import { learningStrategy } from './strategy';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { BulletTag, RuleCount } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';
import { boilerplateWarning, markBoilerplate } from '../trace/turns/boilerplate';
import { aggregateBatch, type BatchAggregation } from './aggregate';
import { DeltaApplier, type Veto } from './apply';
import { BatchSizer } from './capacity/batchSizer';
import { CapacityTracker, type LoadObservation } from './capacity/capacityLearning';
import type { Measurement } from './capacity/controller';
import { RunJournal, type RunLimits } from './journal';
import type { PlanKind } from './plan';
import { reflectBatch, type MapResult } from './map';
import { pipelinedScan } from './pipeline';
import { RUN_RECORD_VERSION, type BatchRecord, type RunRecord } from './record/record';
import { countBatch, type RuleCounting } from './rules/ruleCounting';
import { contentSeed } from './seed';
import { inLearningOrder } from './order';

export type { Strategy } from './types';

export interface LearnOptions {
  traces: Trace[];
  playbook: Playbook;
  reflector: Reflector;
  aggregator: Aggregator;
  provider: ProviderInfo;
  workspace: string;
  strategy?: Strategy;
  /** Traces per batch, or `auto` (the dynamic controller); each batch sees the playbook the previous one produced. */
  batchSize?: number | 'auto';
  /** Bounds of the controller's choice. */
  batchBounds?: { bMin: number; bMax: number };
  seed?: number;
  /** Augmented-shuffle duplication factor p. */
  duplication?: number;
  /** Concurrent calls per level. */
  concurrency?: number;
  /** Most deltas one global call takes; more → one more scan level. */
  maxFanIn?: number;
  /** `capacity` (default): every call fits the aggregator's capacity; `sqrt`: Combee's √n plan as published. */
  plan?: PlanKind;
  signal?: AbortSignal;
  onProgress?: (message: string, fraction: number) => void;
  /** The run's tree so far, every second while it grows (for the panel; see liveRun.ts). */
  onSnapshot?: (snapshot: LiveRunSnapshot) => void;
  /** Returns a reason to drop an operation before it is applied (rejected or deleted before), else undefined. */
  veto?: Veto;
  /** Embeddings when the provider has them: catches duplicate rules worded differently. */
  embed?: EmbedFn;
  /** Per-run limits: reaching one stops the run cleanly, keeping the batches already finished. */
  limits?: RunLimits;
  /** Batch size `auto`: the latency profile an earlier run with this model measured (see BatchSizer). */
  latencyProfile?: Measurement[];
  /**
   * Counting per session (see ruleCounting.ts): the rules each session had in play and the pairs counted before.
   * Without it, counters move as ACE moves them: the last tag of a rule in a batch's delta adds one.
   */
  counting?: RuleCounting;
  /** Aggregation calls recorded for this model before (its capacity profile): the plan fits what it showed. */
  capacityObservations?: LoadObservation[];
}

export interface LearnResult {
  playbook: Playbook;
  applied: AppliedOp[];
  /** Counter tags applied across the batches (helpful / harmful on existing rules), when counting as ACE does. */
  tags: BulletTag[];
  /** Counter increments applied across the batches, when counting per session (`counting`). */
  counts: RuleCount[];
  record: RunRecord;
  /** Traces reflected on and aggregated without a failed call: these are learned, whatever happens later. */
  learnedTraceIds: string[];
  /** Traces whose reflection or whose batch's aggregation failed: not learned, to be learned again by a later run. */
  failedTraces: Array<{ id: string; reason: string }>;
  /** Batch size `auto` without a recorded profile: what this run measured, for the next run to decide from. */
  measuredProfile: Measurement[];
  /** This run's aggregation calls as the capacity is learned from them (for the model's capacity profile). */
  capacityObservations: LoadObservation[];
}

export const DEFAULTS = {
  batchSize: 40,
  duplication: 2,
  concurrency: 4,
  maxFanIn: 12,
  batchBounds: { bMin: 4, bMax: 100 },
} as const;

/** Combee: map (reflect) → augmented shuffle → parallel scan aggregation → deterministic apply, batch after batch. */
export async function learn(options: LearnOptions): Promise<LearnResult> {
  const strategy = options.strategy ?? 'combee';
  const chosen = learningStrategy(strategy);
  const sizes = new BatchSizer(
    chosen.batchSize(options.batchSize ?? DEFAULTS.batchSize),
    options.traces.length,
    options.batchBounds ?? DEFAULTS.batchBounds,
    options.latencyProfile,
    DEFAULTS.batchSize,
  );
  const seed = options.seed ?? contentSeed(options.traces);
  const duplication = options.duplication ?? DEFAULTS.duplication;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const maxFanIn = Math.max(2, options.maxFanIn ?? DEFAULTS.maxFanIn);
  const started = Date.now();
  const journal = new RunJournal(options.traces.length, options.signal, options.limits);
  const applier = new DeltaApplier(journal, options.veto, options.embed);
  const tracker = new CapacityTracker(options.aggregator.capacity?.budgetTokens, options.capacityObservations);
  const batches: BatchRecord[] = [];
  const applied: AppliedOp[] = [];
  const tags: BulletTag[] = [];
  const counts: RuleCount[] = [];
  const learnedTraceIds: string[] = [];
  const failedTraces: Array<{ id: string; reason: string }> = [];
  let playbook = options.playbook;
  let status: RunRecord['status'] | undefined;

  const live = liveSnapshots(
    {
      workspace: options.workspace,
      startedAt: new Date(started).toISOString(),
      provider: options.provider.provider,
      model: options.provider.model,
      strategy,
      seed,
      duplication,
      traces: options.traces.length,
    },
    journal,
    options.onSnapshot,
  );
  // text repeated at the start of many sessions is context, never the user's lesson (trace/turns/boilerplate.ts)
  const marked = markBoilerplate(options.traces);
  if (marked.marked > 0) journal.warnings.push(boilerplateWarning(marked.marked));
  const traces = inLearningOrder(marked.traces);
  try {
    for (let b = 0, offset = 0; offset < traces.length; b++) {
      const batchStarted = Date.now();
      const batch = traces.slice(offset, offset + sizes.next());
      const done = offset;
      offset += batch.length;
      const frozen = playbook;
      const progress = (stage: string, within: number) =>
        options.onProgress?.(
          `batch ${b + 1} (${batch.length} session(s), ${offset}/${traces.length}): ${stage}`,
          (done + within * batch.length) / traces.length,
        );

      const settings = {
        strategy,
        aggregator: options.aggregator,
        duplication,
        seed: seed + b,
        concurrency,
        maxFanIn,
        plan: options.plan,
      };
      let mapped: MapResult;
      let aggregation: BatchAggregation;
      if (chosen.scans(batch.length)) {
        progress(`reflecting on ${batch.length} session(s)`, 0);
        ({ mapped, aggregation } = await pipelinedScan(
          batch,
          b,
          frozen,
          options.reflector,
          settings,
          journal,
          progress,
          tracker,
        ));
      } else {
        progress(`reflecting on ${batch.length} session(s)`, 0);
        mapped = await reflectBatch(batch, b, frozen, options.reflector, concurrency, journal);
        journal.signal.throwIfAborted();
        progress('aggregating', 0.5);
        aggregation = await aggregateBatch(mapped.reflections, b, frozen, settings, journal, tracker.knowledge());
      }
      // the batch's other calls (its local calls told the pipeline already) teach the next batch's plan
      tracker.observe(journal.nodes.filter((n) => n.batch === b && (n.kind === 'single' || n.kind === 'global')));
      // A cancel or a limit reached during this batch: nothing of it is applied.
      journal.signal.throwIfAborted();
      // per-session counting replaces the delta's tags (a lossy merge of the same sessions' words)
      const counted =
        options.counting &&
        countBatch(
          batch,
          mapped.reflections.map((m) => m.reflection),
          frozen,
          options.counting,
        );
      const final = aggregation.final && (counted ? withoutTags(aggregation.final) : aggregation.final);
      if (final) {
        const result = await applier.apply(playbook, final, b);
        playbook = result.playbook;
        applied.push(...result.applied);
        tags.push(...result.tags);
      }
      if (counted && counted.counts.length > 0) {
        playbook = applyDelta(playbook, { ops: [], tags: [], counts: counted.counts }).playbook;
        counts.push(...counted.counts);
      }
      const traceIds = batch.map((t) => t.id);
      batches.push({
        index: b,
        traceIds,
        ...aggregation.shape,
        wallMs: Date.now() - batchStarted,
        tags: (final?.delta.tags ?? []).map(({ id, tag }) => ({ id, tag })),
        ...(counted ? { evidence: counted.evidence } : {}),
      });
      sizes.record(batch.length, Date.now() - batchStarted);
      // Learned only when nothing of it was lost: a failed call leaves its sessions for the next run.
      for (const id of traceIds) {
        const reason = mapped.failed.get(id) ?? (aggregation.failed ? 'an aggregation of its batch failed' : undefined);
        if (reason) failedTraces.push({ id, reason });
        else learnedTraceIds.push(id);
      }
      progress('done', 1);
      live.flush();
    }
  } catch (error) {
    status = journal.interrupted(error);
  } finally {
    live.stop();
    journal.close();
  }
  status ??= journal.settled(failedTraces.length);
  journal.totals.wallMs = Date.now() - started;
  const record: RunRecord = {
    version: RUN_RECORD_VERSION,
    id: runId(),
    workspace: options.workspace,
    startedAt: new Date(started).toISOString(),
    endedAt: new Date().toISOString(),
    status,
    provider: options.provider.provider,
    model: options.provider.model,
    strategy,
    seed,
    duplication,
    batchSize: sizes.largest,
    controller: sizes.decision,
    totals: journal.totals,
    batches,
    nodes: journal.nodes,
    warnings: journal.warnings,
    layout: layoutOnce(journal.nodes, journal.warnings),
  };
  return {
    playbook,
    applied,
    tags,
    counts,
    record,
    learnedTraceIds,
    failedTraces,
    measuredProfile: sizes.measured,
    capacityObservations: tracker.recorded,
  };
}

/** The tree laid out here, in the learner's worker, so that opening it in the webview draws at once. */
function layoutOnce(nodes: RunRecord['nodes'], warnings: string[]): StoredLayout | undefined {
  try {
    return storeLayout(layoutRun(nodes), nodes);
  } catch (error) {
    warnings.push(
      `the aggregation tree was not laid out (${(error as Error).message}); the panel lays it out when shown`,
    );
    return undefined;
  }
}

function runId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${randomUUID().slice(0, 8)}`;
}

/** The batch's delta without its tags: counted per session instead. */
function withoutTags(final: NodeDelta): NodeDelta {
  return { ...final, delta: { ...final.delta, tags: [] } };
}
