import type { Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';
import {
  higherLevels,
  isDefined,
  Levels,
  scanMode,
  type AggregationSettings,
  type BatchAggregation,
} from './aggregate';
import type { CapacityTracker } from './capacity/capacityLearning';
import type { RunJournal } from './journal';
import { reflectBatch, type MappedReflection, type MapResult } from './map';
import { Planner } from './plan';
import type { RunNode } from './record/record';
import { planScan } from './scan';
import type { NodeDelta, Reflector } from './types';

/**
 * One Combee batch of 4 or more sessions, pipelined. The shuffle plan depends only on the batch and the seed, so the
 * groups are known before any reflection is: reflections start group by group, and each group's local aggregation
 * starts as soon as its own members are in, while later groups still reflect. Then the higher levels. What is
 * computed does not depend on timing: the same batch and seed give the same calls and the same tree.
 */
export async function pipelinedScan(
  batch: readonly Trace[],
  b: number,
  frozen: Playbook,
  reflector: Reflector,
  settings: AggregationSettings,
  journal: RunJournal,
  progress: (stage: string, within: number) => void = () => {},
  tracker?: CapacityTracker,
): Promise<{ mapped: MapResult; aggregation: BatchAggregation }> {
  const plan = planScan(batch, settings.duplication, settings.seed);
  const capacity = settings.plan === 'sqrt' ? undefined : settings.aggregator.capacity;
  const planner = new Planner(capacity, frozen, settings.maxFanIn);
  // the √n plan is Combee as published, the baseline: its calls are checked, not redone
  const levels = new Levels(b, frozen, settings.aggregator, journal, settings.plan !== 'sqrt');
  // what earlier batches (and runs) showed of the model, fixed for the batch's local calls
  learnFrom(tracker, planner, levels);
  const settle: Array<(mapped: MappedReflection | undefined) => void> = [];
  const reflected = batch.map((_, i) => new Promise<MappedReflection | undefined>((resolve) => (settle[i] = resolve)));
  const calls = new Slots(settings.concurrency);
  let reflectedCount = 0;
  let aggregatedGroups = 0;
  const report = () =>
    progress(
      `reflected on ${reflectedCount}/${batch.length} session(s), ${aggregatedGroups}/${plan.groups.length} group(s) aggregated`,
      0.8 * (reflectedCount / batch.length),
    );
  const localsOf = async (group: number[], g: number): Promise<LocalCall[]> => {
    const members = (await Promise.all(group.map((i) => reflected[i]))).filter(isDefined);
    if (members.length === 0) return [];
    const parts = planner.localCalls(members);
    const done = await Promise.all(
      parts.map(async (part, s) => {
        const suffix = parts.length === 1 ? `${g}` : `${g}.${s + 1}`;
        const delta = await calls.run(() => localCall(part, suffix, b, levels, journal));
        return { part, delta };
      }),
    );
    aggregatedGroups++;
    report();
    return done;
  };
  // Settled at once, so a local call that fails while others still reflect is never an unhandled rejection.
  const locals = Promise.all(plan.groups.map(localsOf)).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  let mapped: MapResult;
  try {
    mapped = await reflectBatch(batch, b, frozen, reflector, settings.concurrency, journal, {
      order: startOrder(plan.groups),
      onDone: (i, reflection) => {
        settle[i](reflection);
        reflectedCount++;
        report();
      },
    });
  } catch (error) {
    for (const release of settle) release(undefined);
    await locals;
    throw error;
  }
  const settled = await locals;
  if ('error' in settled) throw settled.error;
  const done = settled.value.flat();
  const index = new Map(batch.map((t, i) => [t.id, i]));
  const groups = done.map((c) => c.part.map((m) => index.get(m.reflection.traceId) ?? -1));
  if (mapped.reflections.length === 0) {
    sortBatchNodes(journal.nodes, b, index);
    return { mapped, aggregation: { failed: false, shape: { mode: 'no_deltas', k: 0, levels: 0, groups: [] } } };
  }
  progress('aggregating the group deltas', 0.8);
  // every local call is in: what they showed of the model plans the higher levels
  tracker?.observe(journal.nodes.filter((n) => n.batch === b && n.kind === 'local'));
  learnFrom(tracker, planner, levels);
  const { final, level, direct } = await higherLevels(
    done.map((c) => c.delta).filter(isDefined),
    levels,
    settings,
    planner,
  );
  sortBatchNodes(journal.nodes, b, index);
  const hasLessons = mapped.reflections.some((r) => r.reflection.lessons.length > 0);
  return {
    mapped,
    aggregation: {
      final,
      failed: levels.failed,
      shape: {
        mode: scanMode(hasLessons, levels.mergedOperations, direct),
        k: done.length,
        levels: level,
        groups,
        plan: planner.record(settings.plan === 'sqrt' ? 'the √n plan was asked for' : undefined),
      },
    },
  };
}

interface LocalCall {
  part: MappedReflection[];
  /** None when the call failed. */
  delta: NodeDelta | undefined;
}

/** The budget and judgment the tracker knows now, for the calls planned next. */
function learnFrom(tracker: CapacityTracker | undefined, planner: Planner, levels: Levels): void {
  if (!tracker) return;
  const knowledge = tracker.knowledge();
  levels.knowledge = knowledge;
  planner.use(knowledge);
}

/** One local aggregation over (a part of) a shuffled group, with its group node. */
function localCall(
  part: MappedReflection[],
  suffix: string,
  b: number,
  levels: Levels,
  journal: RunJournal,
): Promise<NodeDelta | undefined> {
  const groupNode = `b${b}:group:${suffix}`;
  journal.nodes.push({
    id: groupNode,
    kind: 'group',
    batch: b,
    level: 1,
    label: `group ${groupLabel(suffix)} (${part.length} reflections)`,
    parents: [...new Set(part.map((m) => m.nodeId))],
    status: 'ok',
    detail: { members: part.map((m) => m.reflection.traceId) },
  });
  return levels.call(
    { level: 'local', reflections: part.map((m) => m.reflection), deltas: [] },
    `b${b}:local:${suffix}`,
    `local delta ${groupLabel(suffix)}`,
    [groupNode],
    1,
  );
}

/** `3` → `4`, `3.2` → `4.2`: groups are numbered from 1 for people. */
function groupLabel(suffix: string): string {
  const [g, s] = suffix.split('.');
  return s === undefined ? `${Number(g) + 1}` : `${Number(g) + 1}.${s}`;
}

/** Each trace once, where it first appears in the groups: the first group's members reflect first. */
function startOrder(groups: readonly number[][]): number[] {
  const seen = new Set<number>();
  const order: number[] = [];
  for (const group of groups)
    for (const i of group)
      if (!seen.has(i)) {
        seen.add(i);
        order.push(i);
      }
  return order;
}

/** At most `limit` local calls in flight; the others wait their turn, first come first served. */
class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const REDO_SLOT = 1_000_000;

const KIND_RANK: Record<string, number> = { trace: 0, reflection: 1, group: 2, local: 3, single: 3, global: 4 };

/**
 * The batch's nodes in an order that does not depend on which call finished first: sessions and reflections in the
 * batch's order, then groups and local deltas by group, then the higher levels by level and position.
 */
function sortBatchNodes(nodes: RunNode[], b: number, index: ReadonlyMap<string, number>): void {
  const first = nodes.findIndex((n) => n.batch === b);
  if (first < 0) return;
  const mine = nodes.slice(first);
  const slot = (n: RunNode): number[] => {
    const tail = n.id.slice(n.id.lastIndexOf(':') + 1);
    if (n.kind === 'trace' || n.kind === 'reflection') {
      const traceId = (n.kind === 'trace' ? n.id.split(':trace:')[1] : n.id.split(':reflection:')[1]) ?? '';
      return [index.get(traceId) ?? Number.MAX_SAFE_INTEGER];
    }
    // `3.2` is group 4's second part, `.r1` the first redo of what the call before it dropped (after that call)
    return tail
      .split('.')
      .map((part) =>
        /^\d+$/.test(part) ? Number(part) : /^r\d+$/.test(part) ? REDO_SLOT + Number(part.slice(1)) : -1,
      );
  };
  const keyed = mine.map((node, at) => ({ node, at, rank: KIND_RANK[node.kind] ?? 5, slot: slot(node) }));
  keyed.sort((x, y) => {
    if (x.rank !== y.rank) return x.rank - y.rank;
    if ((x.node.level ?? 0) !== (y.node.level ?? 0)) return (x.node.level ?? 0) - (y.node.level ?? 0);
    for (let i = 0; i < Math.max(x.slot.length, y.slot.length); i++) {
      const d = (x.slot[i] ?? -1) - (y.slot[i] ?? -1);
      if (d !== 0) return d;
    }
    return x.at - y.at;
  });
  nodes.splice(first, mine.length, ...keyed.map((k) => k.node));
}
