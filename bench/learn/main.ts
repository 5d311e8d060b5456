import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/core/learn/record/record';
import type { Strategy } from '../../src/core/learn/run';
import { serializePlaybook } from '../../src/core/playbook/markdown';
import { startModelServer } from '../../testing/modelServer';
import { controllerBench } from './controllerBench';
import { learningCorpus, plantedLessons } from './corpus';
import { retentionSvg } from './plot';
import { LATENCY, OVERLOAD, simulatedResponder } from './simulation';
import { retentionBench, type Variant } from './retentionBench';
import { CONCURRENCY, learnSimulated } from './simulatedRun';
import { targetLessonsBench } from './targetLessons';

interface RunFigures {
  strategy: Variant;
  traces: number;
  batch: number;
  wallMs: number;
  idealMs: number;
  /** The ideal under the endpoint's concurrency cap (see capAwareIdeal). */
  capIdealMs: number;
  calls: number;
  tokens: number;
  retained: number;
  planted: number;
  /** The largest aggregation prompt sent (input tokens) and the operations merged in code, over the run's batches. */
  largestCallTokens?: number;
  mergedInCode?: number;
  levels?: number;
}

/**
 * The cap-aware ideal: the run's own calls, with the latencies they had and the dependencies they have (a local call
 * on its group's reflections, a higher level on the deltas below), scheduled on `cap` slots by a scheduler that knows
 * every latency in advance and always starts the ready call with the longest path still behind it. Batches run one
 * after another. This is what the endpoint's concurrency cap allows at best; the unlimited ideal below ignores the cap.
 */
function capAwareIdeal(record: RunRecord, cap: number): number {
  const callKinds = new Set(['reflection', 'single', 'local', 'global']);
  let total = 0;
  for (const batch of record.batches) {
    const nodes = record.nodes.filter((n) => n.batch === batch.index);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const calls = nodes.filter((n) => callKinds.has(n.kind) && n.latencyMs !== undefined);
    const isCall = new Set(calls.map((n) => n.id));
    // the calls a call waits for, through the group nodes between them
    const deps = new Map<string, string[]>();
    const callParents = (id: string, seen = new Set<string>()): string[] =>
      (byId.get(id)?.parents ?? []).flatMap((p) => {
        if (seen.has(p)) return [];
        seen.add(p);
        return isCall.has(p) ? [p] : callParents(p, seen);
      });
    for (const n of calls) deps.set(n.id, callParents(n.id));
    const children = new Map<string, string[]>();
    for (const [id, ds] of deps) for (const d of ds) children.set(d, [...(children.get(d) ?? []), id]);
    const tail = new Map<string, number>();
    const longest = (id: string): number => {
      const known = tail.get(id);
      if (known !== undefined) return known;
      const value = (byId.get(id)?.latencyMs ?? 0) + Math.max(0, ...(children.get(id) ?? []).map(longest));
      tail.set(id, value);
      return value;
    };
    const finish = new Map<string, number>();
    const running: Array<{ id: string; end: number }> = [];
    const pending = new Set(calls.map((n) => n.id));
    let now = 0;
    while (pending.size > 0 || running.length > 0) {
      const ready = [...pending]
        .filter((id) => (deps.get(id) ?? []).every((d) => finish.has(d)))
        .sort((a, b) => longest(b) - longest(a) || (a < b ? -1 : 1));
      while (running.length < cap && ready.length > 0) {
        const id = ready.shift()!;
        pending.delete(id);
        running.push({ id, end: now + (byId.get(id)?.latencyMs ?? 0) });
      }
      running.sort((a, b) => a.end - b.end);
      const next = running.shift();
      if (!next) break;
      now = next.end;
      finish.set(next.id, now);
    }
    total += now;
  }
  return total;
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
  variant: Variant,
  traceCount: number,
  batch: number,
  lessonCount: number,
  seed: number,
): Promise<RunFigures> {
  const strategy: Strategy = variant === 'combee-sqrt' ? 'combee' : variant;
  const lessons = plantedLessons(lessonCount);
  const traces = learningCorpus(traceCount, lessons, 2, seed);
  const result = await learnSimulated(url, traces, {
    strategy,
    batchSize: batch,
    seed,
    plan: variant === 'combee-sqrt' ? 'sqrt' : 'capacity',
  });
  const text = serializePlaybook(result.playbook);
  const retained = lessons.filter((l) => text.includes(`${l.id}:`)).length;
  const plans = result.record.batches.flatMap((b) => (b.plan ? [b.plan] : []));
  return {
    strategy: variant,
    traces: traceCount,
    batch,
    wallMs: result.record.totals.wallMs,
    idealMs: idealCriticalPath(result.record),
    capIdealMs: capAwareIdeal(result.record, CONCURRENCY),
    calls: result.record.totals.calls,
    tokens: result.record.totals.inputTokens + result.record.totals.outputTokens,
    retained,
    planted: lessonCount,
    // as the server counted them, for every plan
    largestCallTokens: Math.max(
      0,
      ...result.record.nodes
        .filter((n) => n.kind === 'single' || n.kind === 'local' || n.kind === 'global')
        .map((n) => n.inputTokens ?? 0),
    ),
    mergedInCode: plans.reduce((sum, p) => sum + p.mergedInCode, 0),
    levels: Math.max(0, ...result.record.batches.map((b) => b.levels)),
  };
}

export async function runLearnBench(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const quick = argv.includes('--quick');
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : join(process.cwd(), 'bench', 'results');
  const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  // `--targets`: only the lessons that differ in their make, npm-script or cargo target
  if (argv.includes('--targets')) {
    const figures = await targetLessonsBench(quick, log);
    if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    return figures.every((f) => f.kept >= 0.95 * f.planted) ? 0 : 1;
  }
  const server = await startModelServer({
    responder: simulatedResponder,
    concurrencyCap: CONCURRENCY,
    retryAfterSeconds: 1,
  });
  try {
    log(
      `SIMULATION: loopback OpenAI-compatible server; reflector ${LATENCY.reflectMs} ms ±${LATENCY.reflectJitter * 100} %, aggregation ${LATENCY.aggregateBaseMs} ms + ${LATENCY.aggregatePerOutputOpMs} ms/op, concurrency cap ${CONCURRENCY}; overload r = min(1, (${OVERLOAD.capacityTokens}/load)^γ), neither told to the planner (it starts from the default setting).`,
    );
    const speed: RunFigures[] = [];
    for (const n of quick ? [40] : [40, 200, 1000]) {
      // sequential at 1,000 sessions would take five minutes of simulated latency to say what 200 already says
      for (const strategy of n === 1000
        ? (['naive', 'combee'] as const)
        : (['sequential', 'naive', 'combee'] as const)) {
        const figures = await runOnce(server.url, strategy, n, strategy === 'sequential' ? 1 : n, n, 11);
        speed.push(figures);
        log(
          `speed  n=${n} ${strategy.padEnd(10)} wall ${(figures.wallMs / 1000).toFixed(2)} s  ideal ${(figures.idealMs / 1000).toFixed(2)} s  cap-aware ideal ${(figures.capIdealMs / 1000).toFixed(2)} s  calls ${figures.calls}  tokens ${figures.tokens}`,
        );
      }
    }
    const controller = await controllerBench(
      server.url,
      quick ? 100 : 200,
      31,
      quick ? [4, 16, 50, 100] : [4, 8, 16, 32, 50, 64, 100],
      log,
    );
    // Retention under a capacity the planner is not told, at several decays (latencies off: only what is kept counts)
    const { figures: retention, replay, traceCount, lessonCount } = await retentionBench(quick, log);
    const distinctTargets = await targetLessonsBench(quick, log);
    const sizes = [...new Set(retention.filter((r) => r.strategy !== 'sequential').map((r) => r.batch))];
    const gammas = [...new Set(retention.map((r) => r.gamma))];
    const sequentialKept = (gamma: number) =>
      retention.find((r) => r.strategy === 'sequential' && r.gamma === gamma)!.retained;
    const seq40 = speed.find((s) => s.traces === 40 && s.strategy === 'sequential')!;
    const combee40 = speed.find((s) => s.traces === 40 && s.strategy === 'combee')!;
    const naive40 = speed.find((s) => s.traces === 40 && s.strategy === 'naive')!;
    const at = (variant: Variant, batch: number, gamma: number) =>
      retention.find((r) => r.strategy === variant && r.batch === batch && r.gamma === gamma)!;
    const worst = (value: (batch: number, gamma: number) => number) =>
      Math.min(...gammas.flatMap((g) => sizes.map((b) => value(b, g))));
    const summary = {
      simulation: {
        latency: LATENCY,
        overload: { hiddenCapacityTokens: OVERLOAD.capacityTokens, gammas, speedGamma: OVERLOAD.gamma },
        concurrencyCap: CONCURRENCY,
        traceCount,
        lessonCount,
      },
      speed,
      controller,
      retention,
      replay,
      distinctTargets,
      targets: {
        controllerVsBestFixed: {
          value: controller.ratio,
          target: '≤ 1.1× (epoch at the chosen size / best fixed size)',
        },
        controllerReproducible: {
          value: controller.reproducible ? 1 : 0,
          target: '1 (same size and playbook on replay)',
        },
        speedupAt40: { value: seq40.wallMs / combee40.wallMs, target: '≥ 10×' },
        combeeVsIdealAt40: { value: combee40.wallMs / combee40.idealMs, target: '≤ 1.2×' },
        combeeVsCapAwareIdealWorst: {
          value: Math.max(...speed.filter((s) => s.strategy === 'combee').map((s) => s.wallMs / s.capIdealMs)),
          target: '≤ 1.2× at 40, 200 and 1,000 sessions',
        },
        combeeVsNaiveWorst: {
          value: worst((b, g) => at('combee', b, g).retained / Math.max(1, at('naive', b, g).retained)),
          target: '≥ 1 at every batch size and decay',
        },
        combeeVsSequentialWorst: {
          value: worst((b, g) => at('combee', b, g).retained / sequentialKept(g)),
          target: '≥ 0.95 at every batch size and decay',
        },
        tokensCombeeVsNaiveWorst: {
          value: -worst((b, g) => -at('combee', b, g).tokens / at('naive', b, g).tokens),
          target: '≤ 1.3× at every batch size and decay',
        },
        capacityReplays: {
          value: replay.samePlan && replay.samePlaybook ? 1 : 0,
          target: '1 (the learned capacity replays to the same plan and playbook)',
        },
        tokensCombeeVsNaiveAt40: { value: combee40.tokens / naive40.tokens, target: '≤ 1.25×' },
        distinctTargetsKeptWorst: {
          value: Math.min(...distinctTargets.map((f) => f.kept / f.planted)),
          target: '≥ 0.95 of lessons differing only in their target, sequential and combee',
        },
      },
    };
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'learn.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const plotted = retention.filter((r) => r.gamma === OVERLOAD.gamma);
    writeFileSync(join(out, 'retention.svg'), retentionSvg(plotted, sequentialKept(OVERLOAD.gamma)));
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
