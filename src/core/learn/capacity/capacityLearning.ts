import { MIN_AGGREGATION_CAPACITY_TOKENS } from './capacity';
import type { RunNode } from '../record/record';

/** One aggregation call as the capacity is learned from it: its prompt's size, the items given, those it dropped. */
export interface LoadObservation {
  load: number;
  items: number;
  dropped: number;
  /**
   * A call that sent again what another dropped: its items are the ones a model passed over, so only a redo that
   * kept them all says something (that the load was within capacity).
   */
  redo?: boolean;
}

/**
 * A load class (calls within a factor of two of each other) says what the model drops once it holds this many items.
 * Few: of two errors, taking overload for judgment loses items, taking judgment for overload costs a smaller call.
 */
const JUDGMENT_ITEMS = 10;
/** Of the calls at or below the learned capacity, at most this share may have been overloaded. */
const OVERLOADED_SHARE = 0.1;

/** The calls of `nodes` that say something about the model's capacity (aggregation calls that labelled their items). */
export function observationsOf(nodes: readonly RunNode[]): LoadObservation[] {
  return nodes.flatMap((n) =>
    n.items && n.items.loadTokens !== undefined && n.items.in > 0
      ? [
          {
            load: n.items.loadTokens,
            items: n.items.in,
            dropped: n.items.dropped,
            ...(n.items.redoOf ? { redo: true } : {}),
          },
        ]
      : [],
  );
}

/** By load, then items and drops: the same calls in any order give the same capacity. */
function sorted(observations: readonly LoadObservation[]): LoadObservation[] {
  return [...observations].sort(
    (a, b) => a.load - b.load || a.items - b.items || a.dropped - b.dropped || Number(!!a.redo) - Number(!!b.redo),
  );
}

/**
 * The share of items the model drops without a reason whatever the load: its judgment, not overload. Read as the
 * least share of any load class (calls within a factor of two) that holds enough items, once two classes do — in
 * calls all of one size, overload and judgment look the same. Redo calls are left out: their items were chosen.
 */
export function judgmentShare(observations: readonly LoadObservation[]): number | undefined {
  const classes = new Map<number, { items: number; dropped: number }>();
  for (const o of observations) {
    if (o.redo) continue;
    const key = Math.floor(Math.log2(Math.max(1, o.load)));
    const c = classes.get(key) ?? { items: 0, dropped: 0 };
    c.items += o.items;
    c.dropped += o.dropped;
    classes.set(key, c);
  }
  const known = [...classes.values()].filter((c) => c.items >= JUDGMENT_ITEMS);
  if (known.length < 2) return undefined;
  return Math.min(...known.map((c) => c.dropped / c.items));
}

/** Whether a call dropped more than the model's judgment accounts for. */
export function overloadedCall(o: LoadObservation, judgment: number | undefined): boolean {
  return o.dropped > Math.ceil((judgment ?? 0) * o.items);
}

/**
 * The effective capacity the calls showed: the largest load at which a call kept what it was given, such that of
 * all calls at or below it at most a tenth were overloaded — or, when the calls left a gap below the smallest
 * overloaded one, what that call's losses say: at load L keeping a share r, a decay no gentler than r = (C/L)^½
 * puts C at L·r² or above. Without an overloaded call there is nothing to learn (the setting stands).
 */
export function learnedCapacity(observations: readonly LoadObservation[]): number | undefined {
  const judgment = judgmentShare(observations);
  const calls = sorted(observations.filter((o) => !o.redo || !overloadedCall(o, judgment)));
  const smallest = calls.find((o) => overloadedCall(o, judgment));
  if (!smallest) return undefined;
  let clean = 0;
  let overloaded = 0;
  calls.forEach((o, i) => {
    if (overloadedCall(o, judgment)) overloaded++;
    else if (overloaded <= OVERLOADED_SHARE * (i + 1)) clean = o.load;
  });
  const kept = 1 - Math.max(0, smallest.dropped / smallest.items - (judgment ?? 0));
  const boundary = Math.floor(smallest.load * kept * kept);
  return Math.max(MIN_AGGREGATION_CAPACITY_TOKENS, clean, boundary);
}

/** The smallest load at which a call was overloaded (redo calls that dropped again left out), if any was. */
export function overloadedFrom(observations: readonly LoadObservation[]): number | undefined {
  const judgment = judgmentShare(observations);
  const loads = observations.filter((o) => !o.redo && overloadedCall(o, judgment)).map((o) => o.load);
  return loads.length ? Math.min(...loads) : undefined;
}

/** Between what the calls showed and the smallest load that overloaded, a gap wider than this is probed. */
const PROBE_GAP = 1.15;

/**
 * The load to plan the next calls to: the capacity shown, or, while a wide gap lies between it and the smallest
 * overloaded load, their geometric mean — the next calls either keep everything there (the capacity shown rises)
 * or overload (their drops are sent again, and the gap closes from above). A bisection across batches, decided by
 * the recorded calls alone.
 */
export function plannedCapacity(observations: readonly LoadObservation[]): number | undefined {
  const shown = learnedCapacity(observations);
  const over = overloadedFrom(observations);
  if (shown === undefined || over === undefined || over <= shown * PROBE_GAP) return shown;
  return Math.floor(Math.sqrt(shown * over));
}

/** What a plan knows of its model when a batch (or a batch's higher levels) is planned. */
export interface ModelKnowledge {
  /** Tokens every call is planned to fit: the user's setting, or less when the model showed less (see plannedCapacity). */
  budgetTokens?: number;
  /** The capacity the model showed, when it showed one below the setting. */
  learnedTokens?: number;
  /** The share the model drops in small calls (see judgmentShare). */
  judgment?: number;
}

/**
 * The capacity learned over a run: from the calls recorded for this model before (a profile), then from this run's
 * calls batch by batch. It only ever takes whole sets of calls whose results do not depend on timing, so the same
 * profile, sessions and seed give the same plans.
 */
export class CapacityTracker {
  private readonly observations: LoadObservation[];
  private readonly fresh: LoadObservation[] = [];

  constructor(
    private readonly settingTokens: number | undefined,
    prior: readonly LoadObservation[] = [],
  ) {
    this.observations = [...prior];
  }

  knowledge(): ModelKnowledge {
    const learned = learnedCapacity(this.observations);
    const planned = plannedCapacity(this.observations);
    const judgment = judgmentShare(this.observations);
    const budget =
      this.settingTokens === undefined ? undefined : Math.min(this.settingTokens, planned ?? this.settingTokens);
    return {
      ...(budget !== undefined ? { budgetTokens: budget } : {}),
      ...(learned !== undefined && this.settingTokens !== undefined && learned < this.settingTokens
        ? { learnedTokens: learned }
        : {}),
      ...(judgment !== undefined ? { judgment } : {}),
    };
  }

  /** The calls of finished work (a batch's local calls once all are in, then its higher levels). */
  observe(nodes: readonly RunNode[]): void {
    // in the order of their ids, not of which call finished first: the profile keeps the latest calls
    const seen = observationsOf([...nodes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    this.observations.push(...seen);
    this.fresh.push(...seen);
  }

  /** This run's observations, in the order they were taken (for the profile the next run plans with). */
  get recorded(): LoadObservation[] {
    return [...this.fresh];
  }
}
