import type { Playbook } from '../playbook/model';
import { mapLimit } from '../util/concurrency';
import type { BatchMode } from './record/batchMode';
import { usageFields, type RunJournal } from './journal';
import type { MappedReflection } from './map';
import type { BatchRecord } from './record/record';
import { Planner, type PlanKind } from './plan';
import { mergeSameLessons } from './mergeOps';
import { tallyItems, dropShare } from './record/callItems';
import type { ModelKnowledge } from './capacity/capacityLearning';
import { carriedOps, droppedInput, isOverloaded, MAX_REDO_DEPTH, redoTarget, splitToFit } from './overload';
import type { AggregationInput, Aggregator, NodeDelta, Strategy } from './types';
import { learningStrategy } from './strategy';

/** The nodes a delta's operations come from: the next call's parents. */
export function sourceNodes(d: NodeDelta): string[] {
  return [d.nodeId, ...(d.redoNodes ?? [])];
}

export interface AggregationSettings {
  strategy: Strategy;
  aggregator: Aggregator;
  /** Augmented-shuffle duplication factor p. */
  duplication: number;
  /** The shuffle's seed for this batch. */
  seed: number;
  concurrency: number;
  /** Most deltas one global call takes; more → one more scan level. */
  maxFanIn: number;
  /**
   * `capacity` (default): every call is planned to fit the aggregator's capacity, and operations that are the same
   * lesson are merged in code before each higher level; `sqrt`: Combee's plan as published (k = ⌊√n⌋, fan-in levels).
   */
  plan?: PlanKind;
}

export interface BatchAggregation {
  /** The batch's delta; none when there was nothing to aggregate or the calls that would make it failed. */
  final?: NodeDelta;
  /** A call failed: the batch's sessions are learned again later. */
  failed: boolean;
  shape: Pick<BatchRecord, 'mode' | 'k' | 'levels' | 'groups' | 'plan'>;
}

/**
 * One aggregation call over all of batch `b`'s reflections, against its frozen playbook: the naive and sequential
 * strategies, and Combee under 4 sessions. The parallel scan is pipeline.ts, then `higherLevels`.
 */
export async function aggregateBatch(
  reflections: MappedReflection[],
  b: number,
  frozen: Playbook,
  settings: AggregationSettings,
  journal: RunJournal,
  knowledge: ModelKnowledge = {},
): Promise<BatchAggregation> {
  if (reflections.length === 0) return { failed: false, shape: { mode: 'no_deltas', k: 0, levels: 0, groups: [] } };
  const strategy = learningStrategy(settings.strategy);
  const levels = new Levels(b, frozen, settings.aggregator, journal, strategy.redoesOverload);
  levels.knowledge = knowledge;
  // Reflections without lessons leave nothing to merge: the calls below only carry their tags through.
  const hasLessons = reflections.some((r) => r.reflection.lessons.length > 0);
  const singleMode: BatchMode = hasLessons ? 'single_call' : 'no_deltas';
  const all = { level: 'single' as const, reflections: reflections.map((r) => r.reflection), deltas: [] };
  const allNodes = reflections.map((r) => r.nodeId);
  const final = await levels.call(all, `b${b}:single`, strategy.singleCallLabel, allNodes, 1);
  return {
    final,
    failed: levels.failed,
    shape: { mode: singleMode, k: 1, levels: 1, groups: [reflections.map((_, i) => i)] },
  };
}

/** What a planned scan really did: merged operations in a global call, passed one group's delta on, or neither. */
export function scanMode(hasLessons: boolean, mergedOperations: boolean, direct: NodeDelta | undefined): BatchMode {
  if (!hasLessons) return 'no_deltas';
  if (mergedOperations) return 'parallel_scan';
  return direct && direct.delta.ops.length > 0 ? 'one_group' : 'no_deltas';
}

/**
 * The levels above the local deltas: those that are the same lesson merged in code, then calls as the plan packs
 * them, level by level, until one delta is left (the batch's; one alone at level 1 goes on without a global call).
 */
export async function higherLevels(
  locals: NodeDelta[],
  levels: Levels,
  settings: AggregationSettings,
  planner: Planner,
): Promise<{ final?: NodeDelta; level: number; direct?: NodeDelta }> {
  const { b, journal } = levels;
  let level = 1;
  let deltas = locals;
  for (;;) {
    deltas = planner.merge(deltas);
    // One delta left is the batch's; at level 1 the other groups' calls failed, and it goes on without a global call.
    if (deltas.length === 1) return { final: deltas[0], level, direct: level === 1 ? deltas[0] : undefined };
    if (deltas.length === 0) return { level };
    const groups = planner.higherLevel(deltas);
    if (groups.length === 1) break;
    if (groups.length === deltas.length) {
      // No two deltas fit one call: they are distinct lessons already merged in code, and their union is the delta.
      level++;
      return { final: levels.unionInCode(deltas, level), level };
    }
    level++;
    const next = await mapLimit(
      groups,
      settings.concurrency,
      (group, g) =>
        levels.call(
          globalInput(group),
          `b${b}:L${level}:${g}`,
          `level-${level} delta ${g + 1}`,
          group.flatMap(sourceNodes),
          level,
        ),
      journal.signal,
    );
    deltas = next.filter(isDefined);
  }
  level++;
  const final = await levels.call(
    globalInput(deltas),
    `b${b}:global`,
    'global delta',
    deltas.flatMap(sourceNodes),
    level,
  );
  return { final, level };
}

/** The aggregation calls of one batch, each recorded as a node of the tree. */
export class Levels {
  /** A call failed. */
  failed = false;
  /** A global call was given at least one operation to merge: the scan really reduced. */
  mergedOperations = false;
  /** What the run knows of the model: the budget redo calls fit, and the share it drops by judgment. */
  knowledge: ModelKnowledge = {};

  constructor(
    readonly b: number,
    private readonly frozen: Playbook,
    private readonly aggregator: Aggregator,
    readonly journal: RunJournal,
    /** Combee's: an overloaded call's dropped items are sent again in smaller calls (see overload.ts). */
    private readonly redo = false,
  ) {}

  /**
   * One call, checked for what it dropped. An overloaded call's dropped items are sent again in smaller calls, whose
   * operations join its delta (what the call should have returned); dropped operations from two or more sessions
   * that are not sent again are passed on in code.
   */
  async call(
    input: AggregationInput,
    id: string,
    label: string,
    parents: string[],
    level: number,
    /** A redo: the call it sends again what was dropped from, that call's drop share, and how many redos deep. */
    redoOf?: { id: string; share: number; depth: number },
  ): Promise<NodeDelta | undefined> {
    const { journal, b } = this;
    if (input.level === 'global' && input.deltas.some((d) => d.ops.length > 0)) this.mergedOperations = true;
    const result = await journal.guarded(
      () => this.aggregator.aggregate(input, this.frozen, journal.signal),
      `${input.level} aggregation ${id}`,
    );
    if (!result) {
      this.failed = true;
      journal.nodes.push({
        id,
        kind: input.level,
        batch: b,
        level,
        label: `${label} failed`,
        parents,
        status: 'failed',
      });
      return undefined;
    }
    journal.account(result.usage);
    journal.warnings.push(...result.warnings);
    const outcomes = result.items;
    const load = outcomes && this.aggregator.capacity?.measure(input, this.frozen);
    const items = outcomes && tallyItems(outcomes, load);
    const depth = redoOf?.depth ?? 0;
    const overloaded =
      !!items && this.redo && depth < MAX_REDO_DEPTH && isOverloaded(items, this.knowledge.judgment, redoOf?.share);
    const parts = overloaded
      ? splitToFit(
          droppedInput(input, outcomes),
          redoTarget(items, this.knowledge.budgetTokens),
          this.aggregator.capacity,
          this.frozen,
        )
      : [];
    const carried = outcomes && !overloaded ? carriedOps(input, outcomes) : [];
    const delta = carried.length ? { ...result.value, ops: [...result.value.ops, ...carried] } : result.value;
    journal.nodes.push({
      id,
      kind: input.level,
      batch: b,
      level,
      label: `${label}: ${delta.ops.length} op(s)${items?.dropped ? `, dropped ${items.dropped} of ${items.in}` : ''}`,
      parents,
      status: 'ok',
      ...usageFields(result.usage),
      ...(items
        ? {
            items: {
              ...items,
              ...(overloaded ? { overloaded: true, redone: parts.length } : {}),
              ...(carried.length ? { carried: carried.length } : {}),
              ...(redoOf ? { redoOf: redoOf.id } : {}),
            },
          }
        : {}),
      detail: delta,
    });
    const own: NodeDelta = { delta, nodeId: id };
    if (!overloaded) return own;
    const share = dropShare(items);
    const redone = (
      await Promise.all(
        parts.map((part, p) =>
          this.call(part, `${id}.r${p + 1}`, `${label}, redo ${p + 1}`, [id], level, {
            id,
            share,
            depth: depth + 1,
          }),
        ),
      )
    ).filter(isDefined);
    // the redo's lessons are those the call left out, but one may repeat another it kept: folded in code
    const [kept, ...again] = mergeSameLessons([own, ...redone]).deltas;
    return {
      nodeId: id,
      delta: { ...delta, ops: [...kept.delta.ops, ...again.flatMap((d) => d.delta.ops)] },
      redoNodes: redone.flatMap(sourceNodes),
    };
  }

  /** The batch's delta as the union of deltas no call can take together (each already merged in code). */
  unionInCode(deltas: NodeDelta[], level: number): NodeDelta {
    if (deltas.some((d) => d.delta.ops.length > 0)) this.mergedOperations = true;
    const id = `b${this.b}:global`;
    const delta = { ops: deltas.flatMap((d) => d.delta.ops), tags: deltas.flatMap((d) => d.delta.tags) };
    this.journal.nodes.push({
      id,
      kind: 'global',
      batch: this.b,
      level,
      label: `global delta, merged in code: ${delta.ops.length} op(s) (no call fits them together)`,
      parents: deltas.flatMap(sourceNodes),
      status: 'ok',
      detail: delta,
    });
    return { delta, nodeId: id };
  }
}

function globalInput(deltas: NodeDelta[]): AggregationInput {
  return { level: 'global', reflections: [], deltas: deltas.map((d) => d.delta) };
}

export function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}
