import { learn, type LearnOptions, type LearnResult } from '../../src/core/learn/run';
import { LlmAggregator, LlmReflector } from '../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../src/core/llm/openaiClient';
import { emptyPlaybook } from '../../src/core/playbook/markdown';
import type { Trace } from '../../src/core/trace/model';

/** Concurrent calls the simulated endpoint takes (and the runs send). */
export const CONCURRENCY = 64;

/** One learning run against the simulated model at `url`, through the real client, prompts and scan. */
export async function learnSimulated(
  url: string,
  traces: Trace[],
  options: Pick<LearnOptions, 'strategy' | 'batchSize' | 'seed' | 'plan' | 'latencyProfile' | 'capacityObservations'>,
): Promise<LearnResult> {
  const client = new OpenAiCompatibleClient({
    baseUrl: url,
    apiKey: 'simulation',
    model: 'simulated',
    concurrency: CONCURRENCY,
    maxRetries: 6,
    backoffBaseMs: 50,
  });
  const result = await learn({
    traces,
    playbook: emptyPlaybook(),
    reflector: new LlmReflector(client),
    // the default setting: the simulated model's capacity and decay are not told to the planner
    aggregator: new LlmAggregator(client),
    provider: client.info,
    workspace: '/bench/repo',
    concurrency: CONCURRENCY,
    ...options,
  });
  // a figure from a run that lost sessions would measure something else
  if (result.failedTraces.length > 0)
    throw new Error(
      `simulated run failed on ${result.failedTraces.length} session(s): ${result.record.warnings[0] ?? ''}`,
    );
  return result;
}
