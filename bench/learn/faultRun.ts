import { learn } from '../../src/core/learn/run';
import type { RunRecord } from '../../src/core/learn/record/record';
import { openAiRoles } from '../../src/core/llm/providers';
import { emptyPlaybook, serializePlaybook } from '../../src/core/playbook/markdown';
import { startModelServer } from '../../testing/modelServer';
import { learningCorpus, plantedLessons } from './corpus';
import { faultyResponder } from './faults';
import { simulatedResponder } from './simulation';

export interface FaultRunFigures {
  faults: boolean;
  wallMs: number;
  playbook: string;
  reflections: number;
  failedSessions: number;
  status: RunRecord['status'];
  /** Requests the server received, and how many of them it answered with a fault. */
  requests: number;
  hedges: number;
  retries: number;
  /** The same, as the tree's nodes record them (each call's node says it was sent again or hedged). */
  nodeHedges: number;
  nodeRetries: number;
}

/** Hedging scaled like the simulation's latencies (1:10): a floor of 0.5 s stands for 5 s. */
export const SCALED_HEDGE = { floorMs: 500, multiple: 4 } as const;

/** One combee run of `sessions` simulated sessions through the loopback server, with or without the fault mix. */
export async function faultRun(options: {
  sessions: number;
  batch: number;
  seed: number;
  faults: boolean;
  concurrency?: number;
}): Promise<FaultRunFigures> {
  const server = await startModelServer({
    responder: options.faults ? faultyResponder(simulatedResponder, options.seed) : simulatedResponder,
  });
  try {
    const lessons = plantedLessons(options.sessions);
    const traces = learningCorpus(options.sessions, lessons, 2, options.seed);
    const roles = openAiRoles({
      baseUrl: server.url,
      apiKey: 'simulation',
      model: 'simulated',
      concurrency: options.concurrency ?? 16,
      hedge: SCALED_HEDGE,
      backoffBaseMs: 50,
      maxRetries: 8,
    });
    const result = await learn({
      traces,
      playbook: emptyPlaybook(),
      reflector: roles.reflector,
      aggregator: roles.aggregator,
      provider: roles.info,
      workspace: '/bench/repo',
      batchSize: options.batch,
      seed: options.seed,
      concurrency: options.concurrency ?? 16,
    });
    const warnings = result.record.warnings.join('\n');
    return {
      faults: options.faults,
      wallMs: result.record.totals.wallMs,
      playbook: serializePlaybook(result.playbook),
      reflections: result.record.totals.reflections,
      failedSessions: result.failedTraces.length,
      status: result.record.status,
      requests: server.requests.length,
      hedges: warnings.split('(hedged)').length - 1,
      retries: (warnings.match(/; retry \d+\//g) ?? []).length,
      nodeHedges: result.record.nodes.reduce((n, node) => n + (node.hedges ?? 0), 0),
      nodeRetries: result.record.nodes.reduce((n, node) => n + (node.retries ?? 0), 0),
    };
  } finally {
    await server.close();
  }
}
