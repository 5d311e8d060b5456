import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { learn, type Strategy } from '../../src/core/learn/run';
import type { RunRecord } from '../../src/core/learn/record';
import { LlmAggregator, LlmReflector } from '../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../src/core/llm/openaiClient';
import { emptyPlaybook, serializePlaybook } from '../../src/core/playbook/markdown';
import { startModelServer } from '../../test/support/modelServer';
import { learningCorpus, plantedLessons } from './corpus';
import { retentionSvg } from './plot';
import { LATENCY, OVERLOAD, simulatedResponder } from './simulation';

const CONCURRENCY = 64;

interface RunFigures {
  strategy: Strategy;
  traces: number;
  batch: number;
  wallMs: number;
  idealMs: number;
  calls: number;
  tokens: number;
  retained: number;
  planted: number;
}

/** Critical path with unlimited parallelism: per batch, the slowest reflection plus the slowest call of each level. */
function idealCriticalPath(record: RunRecord): number {
  let total = 0;
  for (const batch of record.batches) {
    const nodes = record.nodes.filter((n) => n.batch === batch.index && n.latencyMs !== undefined);
    const reflect = Math.max(0, ...nodes.filter((n) => n.kind === 'reflection').map((n) => n.latencyMs ?? 0));
    const levels = new Map<number, number>();
    for (const n of nodes.filter((n) => ['single', 'local', 'global'].includes(n.kind)))
      levels.set(n.level ?? 1, Math.max(levels.get(n.level ?? 1) ?? 0, n.latencyMs ?? 0));
    total += reflect + [...levels.values()].reduce((a, b) => a + b, 0);
  }
  return total;
}

async function runOnce(
  url: string,
  strategy: Strategy,
  traceCount: number,
  batch: number,
  lessonCount: number,
  seed: number,
): Promise<RunFigures> {
  const lessons = plantedLessons(lessonCount);
  const traces = learningCorpus(traceCount, lessons, 2, seed);
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
    aggregator: new LlmAggregator(client),
    provider: client.info,
    workspace: '/bench/repo',
    strategy,
    batchSize: batch,
    seed,
    concurrency: CONCURRENCY,
  });
  const text = serializePlaybook(result.playbook);
  const retained = lessons.filter((l) => text.includes(`${l.id}:`)).length;
  return {
    strategy,
    traces: traceCount,
    batch,
    wallMs: result.record.totals.wallMs,
    idealMs: idealCriticalPath(result.record),
    calls: result.record.totals.calls,
    tokens: result.record.totals.inputTokens + result.record.totals.outputTokens,
    retained,
    planted: lessonCount,
  };
}

export async function runLearnBench(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const quick = argv.includes('--quick');
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : join(process.cwd(), 'bench', 'results');
  const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const server = await startModelServer({
    responder: simulatedResponder,
    concurrencyCap: CONCURRENCY,
    retryAfterSeconds: 1,
  });
  try {
    log(
      `SIMULATION: loopback OpenAI-compatible server; reflector ${LATENCY.reflectMs} ms ±${LATENCY.reflectJitter * 100} %, aggregation ${LATENCY.aggregateBaseMs} ms + ${LATENCY.aggregatePerOutputOpMs} ms/op, concurrency cap ${CONCURRENCY}; overload r = min(1, (${OVERLOAD.capacityTokens}/load)^${OVERLOAD.gamma}).`,
    );
    const speed: RunFigures[] = [];
    for (const n of quick ? [40] : [40, 200]) {
      for (const strategy of ['sequential', 'naive', 'combee'] as const) {
        const figures = await runOnce(server.url, strategy, n, strategy === 'sequential' ? 1 : n, n, 11);
        speed.push(figures);
        log(
          `speed  n=${n} ${strategy.padEnd(10)} wall ${(figures.wallMs / 1000).toFixed(2)} s  ideal ${(figures.idealMs / 1000).toFixed(2)} s  calls ${figures.calls}  tokens ${figures.tokens}`,
        );
      }
    }
    const retention: RunFigures[] = [];
    const lessonCount = 100;
    const traceCount = quick ? 100 : 200;
    for (const batch of quick ? [1, 40, 100] : [1, 10, 40, 100]) {
      for (const strategy of batch === 1 ? (['sequential'] as const) : (['naive', 'combee'] as const)) {
        const figures = await runOnce(server.url, strategy, traceCount, batch, lessonCount, 23);
        retention.push(figures);
        log(
          `retain batch=${String(batch).padStart(3)} ${strategy.padEnd(10)} kept ${figures.retained}/${figures.planted}  tokens ${figures.tokens}  wall ${(figures.wallMs / 1000).toFixed(2)} s`,
        );
      }
    }
    const seq40 = speed.find((s) => s.traces === 40 && s.strategy === 'sequential')!;
    const combee40 = speed.find((s) => s.traces === 40 && s.strategy === 'combee')!;
    const naive40 = speed.find((s) => s.traces === 40 && s.strategy === 'naive')!;
    const sequentialKept = retention.find((r) => r.strategy === 'sequential')!.retained;
    const combee100 = retention.find((r) => r.strategy === 'combee' && r.batch === 100)!;
    const naive100 = retention.find((r) => r.strategy === 'naive' && r.batch === 100)!;
    const summary = {
      simulation: { latency: LATENCY, overload: OVERLOAD, concurrencyCap: CONCURRENCY },
      speed,
      retention,
      targets: {
        speedupAt40: { value: seq40.wallMs / combee40.wallMs, target: '≥ 10×' },
        combeeVsIdealAt40: { value: combee40.wallMs / combee40.idealMs, target: '≤ 1.2×' },
        retentionCombee100VsSequential: { value: combee100.retained / sequentialKept, target: '≥ 0.9' },
        retentionNaive100VsSequential: { value: naive100.retained / sequentialKept, target: 'visibly lower' },
        tokensCombeeVsNaiveAt40: { value: combee40.tokens / naive40.tokens, target: '≤ 1.25×' },
      },
    };
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'learn.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(join(out, 'retention.svg'), retentionSvg(retention, sequentialKept));
    if (json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else
      for (const [name, t] of Object.entries(summary.targets))
        log(`${name}: ${t.value.toFixed(3)} (target ${t.target})`);
    log(`wrote ${join(out, 'learn.json')} and ${join(out, 'retention.svg')}`);
    return 0;
  } finally {
    await server.close();
  }
}
