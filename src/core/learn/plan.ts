import type { Playbook } from '../playbook/model';
import type { AggregationCapacity, AggregationInput, NodeDelta } from './types';
import { fitsCall } from './capacity/capacity';
import type { ModelKnowledge } from './capacity/capacityLearning';
import type { MappedReflection } from './map';
import { mergeSameLessons } from './mergeOps';
import type { BatchPlan } from './record/record';
import { groupCount, sliceGroups } from './scan';

export type PlanKind = 'sqrt' | 'capacity';

/**
 * How one batch's scan is cut into calls. Without a capacity (the offline aggregator, or the √n plan asked for):
 * Combee as published — k = ⌊√n⌋ local groups, then global levels of at most `maxFanIn` deltas. With one, every call
 * is planned to fit it, on the real prompt: a shuffled group that fits is one local call, one that does not is cut
 * into as few parts as fit (decided when its members are in, so the plan never waits for the whole batch); before
 * each higher level the operations that are the same lesson are merged in code, and the deltas left are packed, in
 * order, into as few calls as fit.
 */
export class Planner {
  private groups = 0;
  private splitGroups = 0;
  private extraCalls = 0;
  /** Reflections too large for the budget alone. */
  private oversized = 0;
  private largestCallTokens = 0;
  private mergedInCode = 0;
  /** Tokens a call is planned to fit: the capacity's, or less once the model showed less (see capacityLearning.ts). */
  private budget: number;
  private learnedTokens?: number;
  /** The budget the local calls were planned to, when the higher levels were planned to another. */
  private localBudget?: number;

  constructor(
    private readonly capacity: AggregationCapacity | undefined,
    private readonly playbook: Playbook,
    private readonly maxFanIn: number,
  ) {
    this.budget = capacity?.budgetTokens ?? 0;
  }

  /** Plans the next calls to what the run knows of the model now. */
  use(knowledge: ModelKnowledge): void {
    if (!this.capacity) return;
    this.budget = Math.min(this.capacity.budgetTokens, knowledge.budgetTokens ?? this.capacity.budgetTokens);
    this.learnedTokens = knowledge.learnedTokens;
  }

  /**
   * The local calls of one shuffled group, once its members' reflections are in: one, or with a capacity, as few
   * contiguous parts as fit it (a reflection too large alone is a call of its own).
   */
  localCalls(members: MappedReflection[]): MappedReflection[][] {
    this.groups++;
    this.localBudget ??= this.budget;
    if (!this.capacity || members.length === 0) return [members];
    const budget = this.budget;
    const capacity = this.capacity;
    const inputOf = (part: MappedReflection[]): AggregationInput => ({
      level: 'local',
      reflections: part.map((m) => m.reflection),
      deltas: [],
    });
    const fits = (part: MappedReflection[], tokens: number) => fitsCall(capacity, inputOf(part), tokens, budget);
    const tokensOf = (part: MappedReflection[]) => this.measure(inputOf(part));
    const whole = tokensOf(members);
    if (fits(members, whole)) {
      this.note(whole);
      return [members];
    }
    this.splitGroups++;
    const parts: MappedReflection[][] = [];
    let current: MappedReflection[] = [];
    let currentTokens = 0;
    for (const member of members) {
      const tried = [...current, member];
      const tokens = tokensOf(tried);
      if (current.length > 0 && !fits(tried, tokens)) {
        parts.push(current);
        this.note(currentTokens);
        current = [member];
        currentTokens = tokensOf(current);
        if (!fits(current, currentTokens)) this.oversized++;
      } else {
        current = tried;
        currentTokens = tokens;
        if (current.length === 1 && !fits(current, tokens)) this.oversized++;
      }
    }
    parts.push(current);
    this.note(currentTokens);
    this.extraCalls += parts.length - 1;
    return parts;
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
      if (
        current.length > 0 &&
        (!fitsCall(this.capacity, globalInput(tried), tokens, this.budget) || current.length >= this.maxFanIn)
      ) {
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
    const budget = this.localBudget ?? this.budget;
    let reason =
      this.splitGroups === 0
        ? `k = ⌊√n⌋ = ${this.groups}: every local call fits ${budget} tokens`
        : `k = ${this.groups + this.extraCalls} local calls for ⌊√n⌋ = ${this.groups} groups: ${this.splitGroups} group(s) split so that every local call fits ${budget} tokens`;
    if (this.oversized > 0) reason += ` (${this.oversized} reflection(s) larger than that alone)`;
    if (this.budget !== budget) reason += `; higher levels fit ${this.budget} tokens`;
    if (this.learnedTokens !== undefined)
      reason += `; the model's calls showed a capacity of ${this.learnedTokens} tokens (the setting, ${this.capacity.budgetTokens}, is the upper bound)`;
    return {
      kind: 'capacity',
      budgetTokens: budget,
      ...(this.budget !== budget ? { higherBudgetTokens: this.budget } : {}),
      ...(this.learnedTokens !== undefined ? { learnedTokens: this.learnedTokens } : {}),
      largestCallTokens: this.largestCallTokens,
      reason,
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
