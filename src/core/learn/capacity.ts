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
}

/** The default effective capacity of one aggregation call (`combee.llm.aggregationCapacityTokens`). */
export const DEFAULT_AGGREGATION_CAPACITY_TOKENS = 16_000;
/** The least a user may set: below it a call holds too few items to merge anything. */
export const MIN_AGGREGATION_CAPACITY_TOKENS = 1_000;
/** The most an aggregation call's answer may hold: an item beyond what fits in it cannot be kept. */
export const AGGREGATION_MAX_OUTPUT_TOKENS = 4_000;
