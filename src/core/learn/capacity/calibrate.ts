import { emptyPlaybook } from '../../playbook/markdown';
import { isAbortError } from '../../util/concurrency';
import { AGGREGATION_MAX_OUTPUT_TOKENS } from './capacity';
import type { AggregationCapacity } from '../types';
import { learnedCapacity, type LoadObservation } from './capacityLearning';
import { CalibrationItems } from './calibrationItems';
import type { AggregationInput, Aggregator, ItemFate } from '../types';

/**
 * A calibration: a few aggregation calls of known, distinct synthetic lessons at growing sizes, sent before a large
 * run to see at what load the model starts to drop what it is given. Its calls are observations like a learning
 * run's (capacityLearning.ts), so the capacity they show plans the next run the same way.
 */

/** The first call's size: a few dozen items, small enough to sit below any model's capacity. */
const FIRST_CALL_TOKENS = 1_000;
/** What an ADD operation adds to the answer beyond its lesson's text (keys, kind, section, the cited label). */
const OPERATION_SYNTAX_TOKENS = 20;
export const DEFAULT_CALIBRATION_SEED = 1;

export interface CalibrationOptions {
  /** The aggregator's own count of a call's prompt (LlmAggregator.capacity): the loads are what it will send. */
  capacity: Pick<AggregationCapacity, 'measure' | 'answer'>;
  /** No call is larger (the user's `combee.llm.aggregationCapacityTokens`, or a flag). */
  upperBoundTokens: number;
  seed?: number;
  /** USD per million input and output tokens, for the cost shown first. */
  prices?: { input: number; output: number };
}

export interface CalibrationCall {
  /** The size the call was filled to. */
  targetTokens: number;
  /** Its prompt's tokens as the aggregator counts them (at most the target). */
  tokens: number;
  items: number;
  input: AggregationInput;
}

export interface CalibrationEstimate {
  calls: number;
  items: number;
  /** Exact: the prompts are built and counted. */
  inputTokens: number;
  /** Rough: one operation per item, at most what an aggregation answer may hold. */
  outputTokens: number;
  costUsd?: number;
}

export interface CalibrationPlan {
  seed: number;
  upperBoundTokens: number;
  /** The largest call whose distinct items' answer fits what one answer may hold, when it is below the bound. */
  answerBoundTokens?: number;
  calls: CalibrationCall[];
  estimate: CalibrationEstimate;
}

export interface CalibrationCallResult {
  targetTokens: number;
  load: number;
  items: number;
  /** What became of the items, when the model answered. */
  answer?: Record<ItemFate, number>;
  /** Why the call failed, when it did. */
  failed?: string;
}

export interface CalibrationResult {
  seed: number;
  upperBoundTokens: number;
  /** The calls sent, smallest first (a cancelled calibration stops short). */
  calls: CalibrationCallResult[];
  /** What the answered calls show, for the model's capacity profile. */
  observations: LoadObservation[];
  /** The capacity these calls show (learnedCapacity), or none when no call was overloaded. */
  learnedTokens?: number;
  /** The largest load a call was answered at. */
  largestAnsweredTokens?: number;
  failedCalls: number;
  cancelled: boolean;
  warnings: string[];
  usage: { inputTokens: number; outputTokens: number; costUsd?: number };
}

/** The sizes to fill: 1,000, 1,500, 2,000, 3,000, 4,000… tokens (half steps of a doubling), the last one the bound. */
export function calibrationSizes(upperBoundTokens: number): number[] {
  const sizes: number[] = [];
  for (let base = FIRST_CALL_TOKENS; ; base *= 2)
    for (const size of [base, base * 1.5]) {
      // a step that would land within a quarter of the bound gives way to the bound
      if (size * 1.25 > upperBoundTokens) return [...sizes, upperBoundTokens];
      sizes.push(size);
    }
}

const input = (items: CalibrationItems, start: number, count: number): AggregationInput => ({
  level: 'local',
  reflections: items.slice(start, count),
  deltas: [],
});

/**
 * As many items from `start` on as fit in `target` tokens, counted with the aggregator's own measure — and whose
 * answer fits what one answer may hold (`answerBound`: the answer, not the target, stopped the call).
 */
function fill(items: CalibrationItems, start: number, target: number, capacity: CalibrationOptions['capacity']) {
  const playbook = emptyPlaybook();
  const measure = (count: number) => capacity.measure(input(items, start, count), playbook);
  const answers = (count: number) =>
    !capacity.answer || capacity.answer.estimate(input(items, start, count)) <= capacity.answer.limitTokens;
  const PROBE = 16;
  const one = measure(1);
  const perItem = Math.max(1, (measure(PROBE) - one) / (PROBE - 1));
  let count = Math.max(1, 1 + Math.floor((target - one) / perItem));
  let tokens = measure(count);
  // items differ in length: a few corrections bring the guess within an item of the target
  for (let step = 0; step < 4; step++) {
    const next = Math.max(1, count + Math.floor((target - tokens) / perItem));
    if (next === count) break;
    count = next;
    tokens = measure(count);
  }
  while (tokens > target && count > 1) tokens = measure(--count);
  let answerBound = false;
  while (!answers(count) && count > 1) {
    answerBound = true;
    count--;
  }
  if (answerBound) tokens = measure(count);
  return { count, tokens, perItem, answerBound };
}

/** The calls a calibration would make, each measured as it will be sent, and what they would cost. */
export function planCalibration(options: CalibrationOptions): CalibrationPlan {
  const seed = options.seed ?? DEFAULT_CALIBRATION_SEED;
  const items = new CalibrationItems(seed);
  const calls: CalibrationCall[] = [];
  let start = 0;
  let outputTokens = 0;
  let answerBoundTokens: number | undefined;
  for (const target of calibrationSizes(options.upperBoundTokens)) {
    const { count, tokens, perItem, answerBound } = fill(items, start, target, options.capacity);
    calls.push({ targetTokens: target, tokens, items: count, input: input(items, start, count) });
    outputTokens += Math.min(AGGREGATION_MAX_OUTPUT_TOKENS, Math.ceil(count * (perItem + OPERATION_SYNTAX_TOKENS)));
    start += count; // every call has items of its own: no call repeats another's
    // a larger call of distinct items could not be answered whole: what it dropped would say nothing of the context
    if (answerBound) {
      answerBoundTokens = tokens;
      break;
    }
  }
  const inputTokens = calls.reduce((sum, c) => sum + c.tokens, 0);
  return {
    seed,
    upperBoundTokens: options.upperBoundTokens,
    ...(answerBoundTokens !== undefined ? { answerBoundTokens } : {}),
    calls,
    estimate: {
      calls: calls.length,
      items: start,
      inputTokens,
      outputTokens,
      costUsd: options.prices
        ? (inputTokens * options.prices.input + outputTokens * options.prices.output) / 1e6
        : undefined,
    },
  };
}

const FATES: readonly ItemFate[] = ['kept', 'merged', 'rejected', 'dropped'];

/**
 * Sends the plan's calls one after the other, smallest first. A failed call is a warning and the others still
 * run; a cancel stops before the next call and keeps what the finished ones showed.
 */
export async function runCalibration(
  plan: CalibrationPlan,
  aggregator: Aggregator,
  signal?: AbortSignal,
  onProgress?: (message: string, fraction: number) => void,
): Promise<CalibrationResult> {
  const playbook = emptyPlaybook();
  const calls: CalibrationCallResult[] = [];
  const observations: LoadObservation[] = [];
  const warnings: string[] = [];
  const usage: CalibrationResult['usage'] = { inputTokens: 0, outputTokens: 0 };
  let cancelled = false;
  for (const [i, call] of plan.calls.entries()) {
    if (signal?.aborted) {
      cancelled = true;
      break;
    }
    const size = `${tokens(call.tokens)}-token call`;
    onProgress?.(`${size}, ${i + 1} of ${plan.calls.length}`, i / plan.calls.length);
    const sent = { targetTokens: call.targetTokens, load: call.tokens, items: call.items };
    try {
      const answer = await aggregator.aggregate(call.input, playbook, signal);
      usage.inputTokens += answer.usage.inputTokens;
      usage.outputTokens += answer.usage.outputTokens;
      if (answer.usage.costUsd !== undefined) usage.costUsd = (usage.costUsd ?? 0) + answer.usage.costUsd;
      warnings.push(...answer.warnings.map((w) => `${size}: ${w}`));
      if (!answer.items) {
        warnings.push(`${size}: the aggregator does not say what became of each item; nothing is learned from it`);
        calls.push({ ...sent, failed: 'no item accounting' });
        continue;
      }
      const outcomes = answer.items;
      const count = Object.fromEntries(FATES.map((f) => [f, outcomes.filter((o) => o.fate === f).length]));
      calls.push({ ...sent, answer: count as Record<ItemFate, number> });
      observations.push({ load: call.tokens, items: outcomes.length, dropped: count.dropped });
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) {
        cancelled = true;
        break;
      }
      const reason = (error as Error).message;
      warnings.push(`${size} failed: ${reason}`);
      calls.push({ ...sent, failed: reason });
    }
  }
  onProgress?.(cancelled ? 'calibration cancelled' : 'calibrated', 1);
  const answered = calls.filter((c) => c.answer).map((c) => c.load);
  const learned = learnedCapacity(observations);
  return {
    seed: plan.seed,
    upperBoundTokens: plan.upperBoundTokens,
    calls,
    observations,
    ...(learned !== undefined ? { learnedTokens: learned } : {}),
    ...(answered.length > 0 ? { largestAnsweredTokens: Math.max(...answered) } : {}),
    failedCalls: calls.filter((c) => c.failed).length,
    cancelled,
    warnings,
    usage,
  };
}

const tokens = (n: number) => n.toLocaleString('en-US');

/** The plan in a few lines: the calls' sizes and what they cost (shown before anything is sent). */
export function describePlan(plan: CalibrationPlan, model: string): string {
  const { estimate } = plan;
  return [
    `Calibration of ${model}: ${estimate.calls} aggregation calls of ${estimate.items} synthetic lessons, at ${plan.calls.map((c) => tokens(c.tokens)).join(', ')} tokens (at most ${tokens(plan.upperBoundTokens)}).`,
    `  About ${tokens(estimate.inputTokens)} input and up to ${tokens(estimate.outputTokens)} output tokens${estimate.costUsd !== undefined ? ` (≈ $${estimate.costUsd.toFixed(2)})` : ''}.`,
    ...(plan.answerBoundTokens !== undefined
      ? [
          `  No larger call is sent: one answer (${tokens(AGGREGATION_MAX_OUTPUT_TOKENS)} tokens) holds the operations of about ${tokens(plan.answerBoundTokens)} tokens of distinct lessons, and learning runs plan every call so that its answer fits too.`,
        ]
      : []),
  ].join('\n');
}

/** Per call what the model kept and dropped, then the capacity it showed (or that it showed none). */
export function describeCalibration(result: CalibrationResult): string {
  const lines = result.calls.map((c) => {
    const size = `  ${tokens(c.load).padStart(7)} tokens, ${String(c.items).padStart(4)} items: `;
    if (!c.answer) return `${size}failed (${c.failed})`;
    const share = c.items > 0 ? Math.round((100 * c.answer.dropped) / c.items) : 0;
    return `${size}${c.answer.dropped} dropped${c.answer.dropped > 0 ? ` (${share} %)` : ''}, ${c.answer.kept} kept, ${c.answer.merged} merged, ${c.answer.rejected} rejected`;
  });
  const verdict =
    result.learnedTokens !== undefined
      ? `Effective capacity: about ${tokens(result.learnedTokens)} tokens per aggregation call.`
      : result.largestAnsweredTokens !== undefined
        ? `No overload seen up to ${tokens(result.largestAnsweredTokens)} tokens: the setting stays the bound.`
        : 'Nothing was measured: no call was answered.';
  const notes = [
    ...(result.failedCalls > 0 ? [`${result.failedCalls} call(s) failed (see the warnings).`] : []),
    ...(result.cancelled ? ['Cancelled: only the calls before the cancel were measured.'] : []),
  ];
  return [verdict, ...lines, ...notes].join('\n');
}
