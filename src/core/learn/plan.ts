import type { Playbook } from '../playbook/model';
import type { NodeDelta } from './aggregate';
import type { AggregationCapacity } from './capacity';
import type { MappedReflection } from './map';
import { mergeSameLessons } from './mergeOps';
import type { BatchPlan } from './record';
import { groupCount, sliceGroups } from './scan';
import type { AggregationInput } from './types';

export type PlanKind = 'sqrt' | 'capacity';

/**
 * How one batch's scan is cut into calls. Without a capacity (the offline aggregator, or the √n plan asked for):
 * Combee as published — k = ⌊√n⌋ local groups, then global levels of at most `maxFanIn` deltas. With one, every call
 * is planned to fit it, on the real prompt: level 1 keeps k = ⌊√n⌋ where every group fits and takes more, smaller
 * groups where one does not; before each higher level the operations that are the same lesson are merged in code,
 * and the deltas left are packed, in order, into as few calls as fit.
 */
export class Planner {
  private reason = '';
  private largestCallTokens = 0;
  private mergedInCode = 0;

  constructor(
    private readonly capacity: AggregationCapacity | undefined,
    private readonly playbook: Playbook,
    private readonly maxFanIn: number,
  ) {}

  /** Level 1's groups, from the shuffled plan's: re-cut into more groups until each fits. */
  levelOne(groups: number[][], reflections: readonly MappedReflection[]): number[][] {
    const sqrtK = groups.length;
    if (!this.capacity) return groups;
    const order = groups.flat();
    const tokensOf = (group: number[]) =>
      this.measure({ level: 'local', reflections: group.map((i) => reflections[i].reflection), deltas: [] });
    let k = sqrtK;
    let cut = groups;
    for (;;) {
      const largest = Math.max(...cut.map(tokensOf));
      if (largest <= this.capacity.budgetTokens || k >= order.length) {
        this.note(largest);
        this.reason =
          k === sqrtK
            ? `k = ⌊√n⌋ = ${k}: every local call fits ${this.capacity.budgetTokens} tokens`
            : `k = ${k} instead of ⌊√n⌋ = ${sqrtK}: so that every local call fits ${this.capacity.budgetTokens} tokens`;
        if (largest > this.capacity.budgetTokens) this.reason += ` (one reflection alone takes ${largest})`;
        return cut;
      }
      // as many more groups as the largest is over the budget, at least one more
      k = Math.min(order.length, Math.max(k + 1, Math.ceil((k * largest) / this.capacity.budgetTokens)));
      cut = sliceGroups(order, k);
    }
  }

  /** The deltas of a level with the operations that are the same lesson merged (with a capacity only). */
  merge(deltas: NodeDelta[]): NodeDelta[] {
    if (!this.capacity || deltas.length < 2) return deltas;
    const result = mergeSameLessons(deltas);
    this.mergedInCode += result.merged;
    return result.deltas;
  }

  /** The calls of the next level: one group is the global call; as many groups as deltas: none fit together. */
  higherLevel(deltas: NodeDelta[]): NodeDelta[][] {
    if (!this.capacity)
      return deltas.length <= this.maxFanIn ? [deltas] : sliceGroups(deltas, groupCount(deltas.length));
    const groups: NodeDelta[][] = [];
    let current: NodeDelta[] = [];
    let currentTokens = 0;
    for (const delta of deltas) {
      const tried = [...current, delta];
      const tokens = this.measure(globalInput(tried));
      if (current.length > 0 && (tokens > this.capacity.budgetTokens || current.length >= this.maxFanIn)) {
        groups.push(current);
        this.note(currentTokens);
        current = [delta];
        currentTokens = this.measure(globalInput(current));
      } else {
        current = tried;
        currentTokens = tokens;
      }
    }
    groups.push(current);
    this.note(currentTokens);
    return groups;
  }

  /** What the batch record says about the plan. */
  record(override?: string): BatchPlan {
    if (!this.capacity)
      return {
        kind: 'sqrt',
        reason:
          override ??
          `k = ⌊√n⌋, global levels of at most ${this.maxFanIn} deltas (the aggregator has no context limit)`,
        mergedInCode: 0,
      };
    return {
      kind: 'capacity',
      budgetTokens: this.capacity.budgetTokens,
      largestCallTokens: this.largestCallTokens,
      reason: this.reason,
      mergedInCode: this.mergedInCode,
    };
  }

  private measure(input: AggregationInput): number {
    return this.capacity ? this.capacity.measure(input, this.playbook) : 0;
  }

  private note(tokens: number): void {
    this.largestCallTokens = Math.max(this.largestCallTokens, tokens);
  }
}

function globalInput(deltas: NodeDelta[]): AggregationInput {
  return { level: 'global', reflections: [], deltas: deltas.map((d) => d.delta) };
}
