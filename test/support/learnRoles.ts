import type { RunRecord } from '../../src/core/learn/record/record';
import type { AggregationInput, Aggregator, Reflection, Reflector, RoleResult } from '../../src/core/learn/types';
import { offlineRoles } from '../../src/core/llm/providers';
import type { Delta } from '../../src/core/playbook/delta';
import { emptyPlaybook } from '../../src/core/playbook/markdown';
import { bullets, type Playbook } from '../../src/core/playbook/model';
import type { Trace } from '../../src/core/trace/model';
import { makeTrace, user } from '../../testing/traces';

export const scriptedUsage = { inputTokens: 10, outputTokens: 5, latencyMs: 1 };

/** One lesson per trace ("lesson from <id>", unless `lessons` is off); records what each call saw. */
export class ScriptedReflector implements Reflector {
  seenPlaybooks: number[] = [];
  failOn = new Set<string>();
  lessons = true;
  async reflect(trace: Trace, playbook: Playbook): Promise<RoleResult<Reflection>> {
    if (this.failOn.has(trace.id)) throw new Error('model said no');
    this.seenPlaybooks.push(bullets(playbook).length);
    const lessons = this.lessons
      ? [
          {
            section: 'Workflow',
            content: `lesson from ${trace.id}`,
            kind: 'rule' as const,
            evidence: { traceId: trace.id, steps: [0] },
            key: trace.id,
          },
        ]
      : [];
    return { value: { traceId: trace.id, lessons, tags: [] }, usage: scriptedUsage, warnings: [] };
  }
}

/** The offline aggregator with a fixed usage; records each call's level and input sizes; fails the calls `failWhen` picks. */
export class CountingAggregator implements Aggregator {
  calls: Array<{ level: string; reflections: number; deltas: number }> = [];
  failWhen?: (input: AggregationInput, callIndex: number) => boolean;
  private readonly offline = offlineRoles().aggregator;
  async aggregate(input: AggregationInput, playbook: Playbook, signal?: AbortSignal): Promise<RoleResult<Delta>> {
    this.calls.push({ level: input.level, reflections: input.reflections.length, deltas: input.deltas.length });
    if (this.failWhen?.(input, this.calls.length - 1)) throw new Error('500 from the endpoint');
    const result = await this.offline.aggregate(input, playbook, signal);
    return { ...result, usage: scriptedUsage };
  }
}

/** n traces t000, t001, … a minute apart. */
export const numberedTraces = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeTrace(`t${String(i).padStart(3, '0')}`, [user(`task ${i}`)], {
      startedAt: `2026-11-01T10:${String(i % 60).padStart(2, '0')}:00.000Z`,
    }),
  );

export const learnBase = {
  playbook: emptyPlaybook(),
  provider: { provider: 'offline' as const, model: 'test' },
  workspace: '/ws',
};

/** A run record as JSON with everything that depends on the clock blanked: equal for equal runs. */
export function clocklessRecord(record: RunRecord): string {
  return JSON.stringify({
    ...record,
    id: '',
    startedAt: '',
    endedAt: '',
    totals: { ...record.totals, wallMs: 0 },
    batches: record.batches.map((b) => ({ ...b, wallMs: 0 })),
    nodes: record.nodes.map((n) => (n.latencyMs === undefined ? n : { ...n, latencyMs: 0 })),
  });
}
