import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { BulletTag, Delta, DeltaOp } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';
import { isAbortError, mapLimit } from '../util/concurrency';
import { RUN_RECORD_VERSION, type BatchRecord, type RunNode, type RunRecord } from './record';
import { groupCount, planScan, sliceGroups } from './scan';
import { BatchSizer } from './batchSizer';
import type { Measurement } from './controller';
import { contentSeed } from './seed';
import { semanticDuplicates } from './semanticDedupe';
import type { EmbedFn } from '../llm/client';
import type { AggregationInput, Aggregator, CallUsage, ProviderInfo, Reflection, Reflector, RoleResult } from './types';

export type Strategy = 'combee' | 'naive' | 'sequential';

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
  signal?: AbortSignal;
  onProgress?: (message: string, fraction: number) => void;
  /** Returns a reason to drop an operation before it is applied (rejected or deleted before), else undefined. */
  veto?: (op: DeltaOp) => string | undefined;
  /** Embeddings when the provider has them: catches duplicate rules worded differently. */
  embed?: EmbedFn;
  /** Per-run limits: reaching one stops the run cleanly, keeping the batches already finished. */
  limits?: { maxTokens?: number; maxCostUsd?: number };
  /** Batch size `auto`: the latency profile an earlier run with this model measured (see BatchSizer). */
  latencyProfile?: Measurement[];
}

export interface LearnResult {
  playbook: Playbook;
  applied: AppliedOp[];
  /** Counter tags applied across the batches (helpful / harmful on existing rules). */
  tags: BulletTag[];
  record: RunRecord;
  /** Traces reflected on and aggregated without a failed call: these are learned, whatever happens later. */
  learnedTraceIds: string[];
  /** Traces whose reflection or whose batch's aggregation failed: not learned, to be learned again by a later run. */
  failedTraces: Array<{ id: string; reason: string }>;
  /** Batch size `auto` without a recorded profile: what this run measured, for the next run to decide from. */
  measuredProfile: Measurement[];
}

export const DEFAULTS = { batchSize: 40, duplication: 2, concurrency: 4, maxFanIn: 12, batchBounds: { bMin: 4, bMax: 100 } } as const;

/** Combee: map (reflect) → augmented shuffle → parallel scan aggregation → deterministic apply, batch after batch. */
export async function learn(options: LearnOptions): Promise<LearnResult> {
  const strategy = options.strategy ?? 'combee';
  const sizes = new BatchSizer(strategy === 'sequential' ? 1 : (options.batchSize ?? DEFAULTS.batchSize), options.traces.length, options.batchBounds ?? DEFAULTS.batchBounds, options.latencyProfile, DEFAULTS.batchSize);
  const seed = options.seed ?? contentSeed(options.traces);
  const duplication = options.duplication ?? DEFAULTS.duplication;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const maxFanIn = Math.max(2, options.maxFanIn ?? DEFAULTS.maxFanIn);
  const started = Date.now();
  // One signal for the run: the caller's cancel, or a budget reached; it reaches every call in flight.
  const run = new AbortController();
  const onCallerAbort = () => run.abort(options.signal?.reason);
  if (options.signal?.aborted) run.abort(options.signal.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  // Every concurrent call listens on the run's signal: many listeners are expected, not a leak.
  setMaxListeners(0, run.signal);
  const signal = run.signal;
  let stopReason: string | undefined;
  const nodes: RunNode[] = [];
  const batches: BatchRecord[] = [];
  const warnings: string[] = [];
  const applied: AppliedOp[] = [];
  const tags: BulletTag[] = [];
  const learnedTraceIds: string[] = [];
  const failedTraces: Array<{ id: string; reason: string }> = [];
  const calls = { ok: 0, failed: 0, firstError: '' };
  const totals = { traces: options.traces.length, reflections: 0, lessons: 0, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, wallMs: 0, applied: 0, skipped: 0 };
  let playbook = options.playbook;
  let status: RunRecord['status'] = 'completed';

  const traces = [...options.traces].sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.id.localeCompare(b.id));
  const account = (usage: CallUsage) => {
    totals.calls++;
    calls.ok++;
    totals.inputTokens += usage.inputTokens;
    totals.outputTokens += usage.outputTokens;
    totals.costUsd += usage.costUsd ?? 0;
    const limits = options.limits;
    if (stopReason || !limits) return;
    if (limits.maxTokens && totals.inputTokens + totals.outputTokens >= limits.maxTokens) stopReason = `token limit of ${limits.maxTokens} reached`;
    else if (limits.maxCostUsd && totals.costUsd >= limits.maxCostUsd) stopReason = `cost limit of $${limits.maxCostUsd} reached`;
    if (stopReason) run.abort(budgetStop(stopReason));
  };
  const vectors = new Map<string, number[]>();
  let embeddingsFailed = false;
  const semanticCheck = async (ops: DeltaOp[], current: Playbook): Promise<Map<DeltaOp, string>> => {
    if (!options.embed || embeddingsFailed) return new Map();
    try {
      return await semanticDuplicates(ops, current, options.embed, vectors, signal);
    } catch (error) {
      if (isAbortError(error)) throw error;
      embeddingsFailed = true;
      warnings.push(`embeddings unavailable (${(error as Error).message}); duplicates are detected lexically only`);
      return new Map();
    }
  };
  const usageFields = (usage: CallUsage) => ({ latencyMs: usage.latencyMs, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: usage.costUsd });

  try {
    for (let b = 0, offset = 0; offset < traces.length; b++) {
      const batchStarted = Date.now();
      const batch = traces.slice(offset, offset + sizes.next());
      const done = offset;
      offset += batch.length;
      const frozen = playbook;
      const progress = (stage: string, within: number) => options.onProgress?.(`batch ${b + 1} (${batch.length} session(s), ${offset}/${traces.length}): ${stage}`, (done + within * batch.length) / traces.length);

      // Map: every trace against the same frozen playbook.
      progress(`reflecting on ${batch.length} session(s)`, 0);
      const reflections: Array<{ reflection: Reflection; nodeId: string }> = [];
      const failedHere = new Map<string, string>();
      const guarded = <T>(call: () => Promise<RoleResult<T>>, what: string) => guardedCall(call, (reason) => {
        calls.failed++;
        calls.firstError ||= reason;
        warnings.push(`${what} failed: ${reason}`);
      });
      await mapLimit(batch, concurrency, async (trace) => {
        const traceNode = `b${b}:trace:${trace.id}`;
        nodes.push({ id: traceNode, kind: 'trace', batch: b, label: trace.title ?? trace.id, parents: [], status: 'ok', detail: { traceId: trace.id, agent: trace.agent, steps: trace.steps.length } });
        const nodeId = `b${b}:reflection:${trace.id}`;
        const result = await guarded(() => options.reflector.reflect(trace, frozen, signal), `reflection on ${trace.id}`);
        if (!result) {
          failedHere.set(trace.id, 'its reflection failed');
          nodes.push({ id: nodeId, kind: 'reflection', batch: b, label: 'reflection failed', parents: [traceNode], status: 'failed' });
          return;
        }
        account(result.usage);
        warnings.push(...result.warnings);
        nodes.push({ id: nodeId, kind: 'reflection', batch: b, label: `${result.value.lessons.length} lesson(s)`, parents: [traceNode], status: 'ok', ...usageFields(result.usage), detail: result.value });
        reflections.push({ reflection: result.value, nodeId });
      }, signal);
      // Keep map order stable regardless of completion order.
      reflections.sort((x, y) => batch.findIndex((t) => t.id === x.reflection.traceId) - batch.findIndex((t) => t.id === y.reflection.traceId));
      totals.reflections += reflections.length;
      totals.lessons += reflections.reduce((sum, r) => sum + r.reflection.lessons.length, 0);

      signal.throwIfAborted();
      progress('aggregating', 0.5);
      const aggregate = async (input: AggregationInput, id: string, label: string, parents: string[], level: number): Promise<{ delta: Delta; nodeId: string } | undefined> => {
        const result = await guarded(() => options.aggregator.aggregate(input, frozen, signal), `${input.level} aggregation ${id}`);
        if (!result) {
          aggregationFailed = true;
          nodes.push({ id, kind: input.level, batch: b, level, label: `${label} failed`, parents, status: 'failed' });
          return undefined;
        }
        account(result.usage);
        warnings.push(...result.warnings);
        nodes.push({ id, kind: input.level, batch: b, level, label: `${label}: ${result.value.ops.length} op(s)`, parents, status: 'ok', ...usageFields(result.usage), detail: result.value });
        return { delta: result.value, nodeId: id };
      };

      let aggregationFailed = false;
      let final: { delta: Delta; nodeId: string } | undefined;
      let batchRecord: Omit<BatchRecord, 'wallMs' | 'tags'>;
      const traceIds = batch.map((t) => t.id);
      if (reflections.length === 0) {
        batchRecord = { index: b, traceIds, mode: strategy === 'combee' ? 'single_call' : strategy, k: 0, levels: 0, groups: [] };
      } else if (strategy !== 'combee') {
        final = await aggregate({ level: 'single', reflections: reflections.map((r) => r.reflection), deltas: [] }, `b${b}:single`, strategy === 'naive' ? 'naive aggregation' : 'aggregation', reflections.map((r) => r.nodeId), 1);
        batchRecord = { index: b, traceIds, mode: strategy, k: 1, levels: 1, groups: [reflections.map((_, i) => i)] };
      } else {
        const plan = planScan(reflections, duplication, seed + b);
        if (plan.mode === 'single_call') {
          final = await aggregate({ level: 'single', reflections: reflections.map((r) => r.reflection), deltas: [] }, `b${b}:single`, 'aggregation (n < 4)', reflections.map((r) => r.nodeId), 1);
          batchRecord = { index: b, traceIds, mode: 'single_call', k: 1, levels: 1, groups: plan.groups };
        } else {
          // Level 1: one local aggregation per shuffled group, all at once.
          const locals = await mapLimit(plan.groups, concurrency, async (group, g) => {
            const groupNode = `b${b}:group:${g}`;
            nodes.push({ id: groupNode, kind: 'group', batch: b, level: 1, label: `group ${g + 1} (${group.length} reflections)`, parents: [...new Set(group.map((i) => reflections[i].nodeId))], status: 'ok', detail: { members: group.map((i) => reflections[i].reflection.traceId) } });
            return aggregate({ level: 'local', reflections: group.map((i) => reflections[i].reflection), deltas: [] }, `b${b}:local:${g}`, `local delta ${g + 1}`, [groupNode], 1);
          }, signal);
          let level = 1;
          let deltas = locals.filter((l): l is { delta: Delta; nodeId: string } => l !== undefined);
          // Multi-level scan: too many deltas for one global call → aggregate them in groups first.
          while (deltas.length > maxFanIn) {
            level++;
            const groups = sliceGroups(deltas, groupCount(deltas.length));
            const next = await mapLimit(groups, concurrency, (group, g) =>
              aggregate({ level: 'global', reflections: [], deltas: group.map((d) => d.delta) }, `b${b}:L${level}:${g}`, `level-${level} delta ${g + 1}`, group.map((d) => d.nodeId), level), signal);
            deltas = next.filter((l): l is { delta: Delta; nodeId: string } => l !== undefined);
          }
          if (deltas.length === 1) final = deltas[0];
          else if (deltas.length > 1) {
            level++;
            final = await aggregate({ level: 'global', reflections: [], deltas: deltas.map((d) => d.delta) }, `b${b}:global`, 'global delta', deltas.map((d) => d.nodeId), level);
          }
          batchRecord = { index: b, traceIds, mode: 'parallel_scan', k: plan.k, levels: level, groups: plan.groups };
        }
      }

      // A cancel or a limit reached during this batch: nothing of it is applied.
      signal.throwIfAborted();
      if (final) {
        // Changes the team rejected or deleted before are not proposed again from the same evidence.
        const vetoed: AppliedOp[] = [];
        const semantic = await semanticCheck(final.delta.ops, playbook);
        const ops = final.delta.ops.filter((op) => {
          const sessions = new Set(op.support.map((e) => e.traceId)).size;
          const reason = op.op === 'ADD' && op.minSupport && sessions < op.minSupport ? `seen in ${sessions} session(s); needs ${op.minSupport}` : semantic.get(op) ?? options.veto?.(op);
          if (reason) vetoed.push({ op, status: 'skipped', reason });
          return !reason;
        });
        const result = applyDelta(playbook, { ...final.delta, ops });
        result.applied.push(...vetoed);
        playbook = result.playbook;
        applied.push(...result.applied);
        tags.push(...final.delta.tags);
        const ok = result.applied.filter((a) => a.status === 'applied').length;
        totals.applied += ok;
        totals.skipped += result.applied.length - ok;
        nodes.push({ id: `b${b}:apply`, kind: 'apply', batch: b, label: `${ok} change(s) applied`, parents: [final.nodeId], status: 'ok', detail: result.applied.map((a) => ({ op: a.op.op, id: a.id, status: a.status, reason: a.reason, content: 'content' in a.op ? a.op.content : undefined, support: a.op.support })) });
      }
      batches.push({ ...batchRecord, wallMs: Date.now() - batchStarted, tags: (final?.delta.tags ?? []).map(({ id, tag }) => ({ id, tag })) });
      sizes.record(batch.length, Date.now() - batchStarted);
      // Learned only when nothing of it was lost: a failed call leaves its sessions for the next run.
      for (const id of traceIds) {
        const reason = failedHere.get(id) ?? (aggregationFailed ? 'an aggregation of its batch failed' : undefined);
        if (reason) failedTraces.push({ id, reason });
        else learnedTraceIds.push(id);
      }
      progress('done', 1);
    }
  } catch (error) {
    if (stopReason) {
      status = 'stopped';
      warnings.push(`run stopped: ${stopReason}; the batches finished before it are kept`);
    } else if (!isAbortError(error)) {
      status = 'failed';
      warnings.push(`run failed: ${(error as Error).message}`);
    } else {
      status = 'cancelled';
    }
  } finally {
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
  // All or most model calls failed (a wrong key, an endpoint down): the run failed, it did not find "nothing new".
  if (status === 'completed' && calls.failed > 0 && calls.failed >= calls.ok) {
    status = 'failed';
    warnings.push(`run failed: ${calls.failed} of ${calls.ok + calls.failed} model calls failed (first: ${calls.firstError}); the ${failedTraces.length} session(s) they were for will be learned again`);
  }
  totals.wallMs = Date.now() - started;
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
    totals,
    batches,
    nodes,
    warnings,
  };
  return { playbook, applied, tags, record, learnedTraceIds, failedTraces, measuredProfile: sizes.measured };
}

/** A limit reached stops the run like a cancel (an AbortError), with its own reason. */
function budgetStop(reason: string): Error {
  const error = new Error(reason);
  error.name = 'AbortError';
  return error;
}

/** A failed call fails its node, not the run; a cancel still ends the run. */
async function guardedCall<T>(call: () => Promise<RoleResult<T>>, onFailure: (reason: string) => void): Promise<RoleResult<T> | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isAbortError(error)) throw error;
    onFailure((error as Error).message);
    return undefined;
  }
}

function runId(): string {
  return `${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${randomUUID().slice(0, 8)}`;
}
