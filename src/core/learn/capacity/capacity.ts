import type { AggregationCapacity, AggregationInput } from '../types';

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
