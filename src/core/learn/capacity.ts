import type { Playbook } from '../playbook/model';
import type { AggregationInput } from './types';

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

/** Whether a call of `input` (its prompt `tokens` long) fits `budget` and its answer fits the answer's limit. */
export function fitsCall(
  capacity: AggregationCapacity,
  input: AggregationInput,
  tokens: number,
  budget: number,
): boolean {
  if (tokens > budget) return false;
  return !capacity.answer || capacity.answer.estimate(input) <= capacity.answer.limitTokens;
}

/** The default effective capacity of one aggregation call (`combee.llm.aggregationCapacityTokens`). */
export const DEFAULT_AGGREGATION_CAPACITY_TOKENS = 16_000;
/** The least a user may set: below it a call holds too few items to merge anything. */
export const MIN_AGGREGATION_CAPACITY_TOKENS = 1_000;
/** The most an aggregation call's answer may hold: an item beyond what fits in it cannot be kept. */
export const AGGREGATION_MAX_OUTPUT_TOKENS = 4_000;
