import { dropSummary } from '../../src/core/learn/record/callItems';
import type { LoadObservation } from '../../src/core/learn/capacity/capacityLearning';
import type { RunRecord } from '../../src/core/learn/record/record';
import type { Strategy } from '../../src/core/learn/run';
import { serializePlaybook } from '../../src/core/playbook/markdown';
import { startModelServer } from '../../testing/modelServer';
import { learningCorpus, plantedLessons } from './corpus';
import { DECAYS, instantModel, OVERLOAD } from './simulation';
import { CONCURRENCY, learnSimulated } from './simulatedRun';

export type Variant = Strategy | 'combee-sqrt';

export interface RetentionFigures {
  gamma: number;
  strategy: Variant;
  batch: number;
  retained: number;
  planted: number;
  calls: number;
  tokens: number;
  wallMs: number;
  /** The largest aggregation prompt sent (input tokens, as the server counted them). */
  largestCallTokens: number;
  /** Items the calls dropped without a reason, the calls that sent them again, and what stayed lost to its call. */
  dropped: number;
  redoCalls: number;
  lost: number;
  /** The capacity the last batch was planned to, learned from the calls before it (none: the setting). */
  learnedTokens?: number;
}

export interface ReplayFigures {
  /** The budget the replayed run planned to, from the first run's calls. */
  budgetTokens?: number;
  /** Two runs with the same profile planned the same calls and wrote the same playbook. */
  samePlan: boolean;
  samePlaybook: boolean;
}

const TRACES = { full: 1000, quick: 200 } as const;

/**
 * What each strategy keeps of 500 planted lessons in 1,000 sessions, at every batch size and several decays, under a
 * capacity-limited model the planner is not told about (it starts from the default setting). Latencies off.
 */
export async function retentionBench(
  quick: boolean,
  log: (line: string) => void,
): Promise<{ figures: RetentionFigures[]; replay: ReplayFigures; traceCount: number; lessonCount: number }> {
  const traceCount = quick ? TRACES.quick : TRACES.full;
  const lessonCount = traceCount / 2;
  const sizes = quick ? [10, 40, 200] : [10, 40, 100, 200, 500, 1000];
  const lessons = plantedLessons(lessonCount);
  const traces = learningCorpus(traceCount, lessons, 2, 23);
  const figures: RetentionFigures[] = [];
  let replay: ReplayFigures | undefined;
  for (const gamma of quick ? [0.7] : DECAYS) {
    const server = await startModelServer({
      responder: instantModel({ capacityTokens: OVERLOAD.capacityTokens, gamma }),
      concurrencyCap: CONCURRENCY,
      retryAfterSeconds: 1,
    });
    try {
      const run = async (strategy: Variant, batch: number, prior?: LoadObservation[]) => {
        const result = await learnSimulated(server.url, traces, {
          strategy: strategy === 'combee-sqrt' ? 'combee' : strategy,
          batchSize: batch,
          seed: 23,
          plan: strategy === 'combee-sqrt' ? 'sqrt' : 'capacity',
          capacityObservations: prior,
        });
        const text = serializePlaybook(result.playbook);
        return { result, text, kept: lessons.filter((l) => text.includes(`${l.id}:`)).length };
      };
      const measure = async (strategy: Variant, batch: number) => {
        const { result, kept } = await run(strategy, batch);
        const f = figuresOf(result.record, gamma, strategy, batch, kept, lessonCount);
        figures.push(f);
        log(
          `retain γ=${gamma} batch=${String(batch).padStart(4)} ${strategy.padEnd(11)} kept ${f.retained}/${f.planted}  calls ${f.calls}  tokens ${f.tokens}  largest call ${f.largestCallTokens}  dropped ${f.dropped} (redo calls ${f.redoCalls}, lost ${f.lost})${f.learnedTokens ? `  learned ${f.learnedTokens}` : ''}  ${(f.wallMs / 1000).toFixed(1)} s`,
        );
      };
      await measure('sequential', 1);
      for (const batch of sizes)
        for (const strategy of gamma === OVERLOAD.gamma
          ? (['naive', 'combee-sqrt', 'combee'] as const)
          : (['naive', 'combee'] as const))
          await measure(strategy, batch);
      if (gamma === OVERLOAD.gamma) {
        // the capacity a first run learned, replayed twice by the next runs: the same plan and playbook each time
        const batch = sizes[sizes.length - 1];
        const first = await run('combee', batch);
        const a = await run('combee', batch, first.result.capacityObservations);
        const b = await run('combee', batch, first.result.capacityObservations);
        const plans = (r: typeof a) => JSON.stringify(r.result.record.batches.map((x) => [x.plan, x.groups]));
        replay = {
          budgetTokens: a.result.record.batches[0]?.plan?.budgetTokens,
          samePlan: plans(a) === plans(b),
          samePlaybook: a.text === b.text,
        };
        log(
          `replay: a second run plans to ${replay.budgetTokens} tokens from the first run's calls; same plan ${replay.samePlan}, same playbook ${replay.samePlaybook}`,
        );
      }
    } finally {
      await server.close();
    }
  }
  return { figures, replay: replay ?? { samePlan: false, samePlaybook: false }, traceCount, lessonCount };
}

function figuresOf(
  record: RunRecord,
  gamma: number,
  strategy: Variant,
  batch: number,
  retained: number,
  planted: number,
): RetentionFigures {
  const drops = dropSummary(record.nodes);
  const last = record.batches[record.batches.length - 1]?.plan;
  return {
    gamma,
    strategy,
    batch,
    retained,
    planted,
    calls: record.totals.calls,
    tokens: record.totals.inputTokens + record.totals.outputTokens,
    wallMs: record.totals.wallMs,
    largestCallTokens: Math.max(
      0,
      ...record.nodes
        .filter((n) => n.kind === 'single' || n.kind === 'local' || n.kind === 'global')
        .map((n) => n.inputTokens ?? 0),
    ),
    dropped: drops.dropped,
    redoCalls: drops.redoCalls,
    lost: drops.lost,
    ...(last?.learnedTokens ? { learnedTokens: last.learnedTokens } : {}),
  };
}
