import { groupCount } from './scan';
import type { Strategy } from './types';
import { learningStrategy } from './strategy';
import type { Trace } from '../trace/model';

export interface RunEstimate {
  sessions: number;
  calls: number;
  /** Rough: condensed sessions (capped by the budget) plus prompt overhead; counted exactly when the run happens. */
  inputTokens: number;
  costUsd?: number;
}

const PROMPT_OVERHEAD_TOKENS = 900;
const LESSON_TOKENS = 60;

function sessionTokens(trace: Trace, budget: number): number {
  let chars = 0;
  for (const step of trace.steps)
    chars +=
      step.kind === 'tool_result'
        ? Math.min(step.output.length, 2400)
        : step.kind === 'tool_call'
          ? Math.min(step.input.length, 600)
          : 'text' in step
            ? Math.min(step.text.length, 2000)
            : 0;
  return Math.min(budget, Math.ceil(chars / 3.5));
}

/** What a run will cost before it starts (shown to the user before a large run). */
export function estimateRun(
  traces: Trace[],
  options: { strategy: Strategy; batchSize: number; budgetTokens: number; pricePerMTokInput?: number },
): RunEstimate {
  const strategy = learningStrategy(options.strategy);
  const batch = Math.max(1, strategy.batchSize(options.batchSize));
  let calls = traces.length;
  let inputTokens = traces.reduce((sum, t) => sum + sessionTokens(t, options.budgetTokens) + PROMPT_OVERHEAD_TOKENS, 0);
  for (let at = 0; at < traces.length; at += batch) {
    const n = Math.min(batch, traces.length - at);
    const aggregations = strategy.scans(n) ? groupCount(n) + 1 : 1;
    calls += aggregations;
    // every lesson is seen twice at level 1 (p = 2) and once more at the global level
    inputTokens += aggregations * PROMPT_OVERHEAD_TOKENS + n * 3 * LESSON_TOKENS * strategy.lessonReads;
  }
  return {
    sessions: traces.length,
    calls,
    inputTokens,
    costUsd: options.pricePerMTokInput !== undefined ? (inputTokens * options.pricePerMTokInput) / 1e6 : undefined,
  };
}
