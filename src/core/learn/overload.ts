import type { DeltaOp } from '../playbook/delta';
import type { Playbook } from '../playbook/model';
import type { AggregationCapacity } from './types';
import { fitsCall, MIN_AGGREGATION_CAPACITY_TOKENS } from './capacity/capacity';
import { dropShare } from './record/callItems';
import type { CallItems } from './record/record';
import type { AggregationInput, ItemOutcome, Reflection } from './types';

/** A dropped item is sent again at most this many times (each time in a smaller call). */
export const MAX_REDO_DEPTH = 3;

/**
 * Whether a call's silent drops are overload rather than the model's judgment. `judgment` is the share the model
 * drops in calls well within its capacity (see capacityLearning.ts); unknown, a drop counts as overload and the
 * smaller redo tells. A redo that dropped no smaller a share than the call it redoes shows the share does not
 * depend on the size: judgment, not sent again.
 */
export function isOverloaded(items: CallItems, judgment: number | undefined, redoneShare?: number): boolean {
  if (items.dropped === 0) return false;
  const share = dropShare(items);
  if (redoneShare !== undefined && share >= redoneShare) return false;
  if (judgment === undefined) return true;
  return items.dropped > Math.ceil(judgment * items.in);
}

/** The part of `input` a call dropped: those lessons and operations only, without tags (the call passed those on). */
export function droppedInput(input: AggregationInput, items: readonly ItemOutcome[]): AggregationInput {
  const dropped = items.filter((i) => i.fate === 'dropped');
  if (input.reflections.length > 0) {
    const chosen = new Map<number, Set<number>>();
    for (const { ref } of dropped)
      if ('reflection' in ref) chosen.set(ref.reflection, (chosen.get(ref.reflection) ?? new Set()).add(ref.lesson));
    const reflections: Reflection[] = input.reflections.flatMap((r, i) => {
      const lessons = chosen.get(i);
      return lessons ? [{ traceId: r.traceId, lessons: r.lessons.filter((_, l) => lessons.has(l)), tags: [] }] : [];
    });
    return { level: input.level, reflections, deltas: [] };
  }
  const chosen = new Map<number, Set<number>>();
  for (const { ref } of dropped)
    if ('delta' in ref) chosen.set(ref.delta, (chosen.get(ref.delta) ?? new Set()).add(ref.op));
  const deltas = input.deltas.flatMap((d, i) => {
    const ops = chosen.get(i);
    return ops ? [{ ops: d.ops.filter((_, o) => ops.has(o)), tags: [] }] : [];
  });
  return { level: input.level, reflections: [], deltas };
}

/** Dropped operations that two or more sessions support, passed on unchanged: never dropped without a reason. */
export function carriedOps(input: AggregationInput, items: readonly ItemOutcome[]): DeltaOp[] {
  return items.flatMap(({ ref, fate, sessions }) =>
    fate === 'dropped' && sessions >= 2 && 'delta' in ref ? [input.deltas[ref.delta].ops[ref.op]] : [],
  );
}

/**
 * How large a call redoing an overloaded one's drops may be: the load at which the call would have kept what it
 * kept had its losses grown in proportion with its load, within the budget — an overestimate under a decay
 * steeper than linear, which the next redo corrects.
 */
export function redoTarget(items: CallItems, budgetTokens: number | undefined): number {
  const load = items.loadTokens ?? 0;
  const kept = 1 - dropShare(items);
  const target = Math.floor(load * kept);
  return Math.max(
    MIN_AGGREGATION_CAPACITY_TOKENS,
    budgetTokens === undefined ? target : Math.min(budgetTokens, target),
  );
}

/**
 * `input` cut, in order, into as few parts as fit `target` tokens (an item too large alone is a part of its own):
 * reflections lesson by lesson, deltas operation by operation.
 */
export function splitToFit(
  input: AggregationInput,
  target: number,
  capacity: AggregationCapacity | undefined,
  playbook: Playbook,
): AggregationInput[] {
  const units: AggregationInput[] =
    input.reflections.length > 0
      ? input.reflections.flatMap((r) =>
          r.lessons.map((lesson) => ({
            level: input.level,
            reflections: [{ traceId: r.traceId, lessons: [lesson], tags: [] }],
            deltas: [],
          })),
        )
      : input.deltas.flatMap((d) =>
          d.ops.map((op) => ({ level: input.level, reflections: [], deltas: [{ ops: [op], tags: [] }] })),
        );
  if (!capacity || units.length <= 1) return [input];
  const merged = (part: AggregationInput[]) => part.reduce(join);
  return packGreedy(units, (part) => {
    const candidate = merged(part);
    return fitsCall(capacity, candidate, capacity.measure(candidate, playbook), target);
  }).map(merged);
}

/**
 * `units` cut, in order, into the longest prefixes `fits` accepts (a unit alone is always a part). Galloping then
 * bisecting, so a part of n units costs O(log n) checks instead of n: each check measures a whole prompt.
 */
export function packGreedy<T>(units: readonly T[], fits: (part: T[]) => boolean): T[][] {
  const parts: T[][] = [];
  let start = 0;
  while (start < units.length) {
    const left = units.length - start;
    let good = 1;
    let bad = 0;
    for (let step = 1; good < left && bad === 0; step *= 2) {
      const tried = Math.min(left, good + step);
      if (fits(units.slice(start, start + tried))) good = tried;
      else bad = tried;
    }
    while (bad - good > 1) {
      const mid = Math.floor((good + bad) / 2);
      if (fits(units.slice(start, start + mid))) good = mid;
      else bad = mid;
    }
    parts.push(units.slice(start, start + good));
    start += good;
  }
  return parts;
}

/** Two parts as one input: a reflection's lessons stay together, each delta's operations stay in their delta. */
function join(a: AggregationInput, b: AggregationInput): AggregationInput {
  if (a.reflections.length > 0) {
    const last = a.reflections[a.reflections.length - 1];
    const next = b.reflections[0];
    const reflections =
      last.traceId === next.traceId
        ? [...a.reflections.slice(0, -1), { ...last, lessons: [...last.lessons, ...next.lessons] }]
        : [...a.reflections, next];
    return { level: a.level, reflections, deltas: [] };
  }
  return { level: a.level, reflections: [], deltas: [...a.deltas, ...b.deltas] };
}
