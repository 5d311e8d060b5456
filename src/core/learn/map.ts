import type { Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';
import { mapLimit } from '../util/concurrency';
import { usageFields, type RunLedger } from './ledger';
import type { Reflection, Reflector } from './types';

/** A reflection and the node of the tree that holds it. */
export interface MappedReflection {
  reflection: Reflection;
  nodeId: string;
}

export interface MapResult {
  /** In the batch's order, whatever order the calls finished in. */
  reflections: MappedReflection[];
  /** Traces whose reflection failed, with the reason they are not learned. */
  failed: Map<string, string>;
}

/** Map: every trace of batch `b` reflected on against the same frozen playbook, `concurrency` calls at a time. */
export async function reflectBatch(
  batch: readonly Trace[],
  b: number,
  frozen: Playbook,
  reflector: Reflector,
  concurrency: number,
  ledger: RunLedger,
): Promise<MapResult> {
  const reflections: MappedReflection[] = [];
  const failed = new Map<string, string>();
  const { nodes, signal } = ledger;
  await mapLimit(
    batch,
    concurrency,
    async (trace) => {
      const traceNode = `b${b}:trace:${trace.id}`;
      nodes.push({
        id: traceNode,
        kind: 'trace',
        batch: b,
        label: trace.title ?? trace.id,
        parents: [],
        status: 'ok',
        detail: { traceId: trace.id, agent: trace.agent, steps: trace.steps.length },
      });
      const nodeId = `b${b}:reflection:${trace.id}`;
      const result = await ledger.guarded(() => reflector.reflect(trace, frozen, signal), `reflection on ${trace.id}`);
      if (!result) {
        failed.set(trace.id, 'its reflection failed');
        nodes.push({
          id: nodeId,
          kind: 'reflection',
          batch: b,
          label: 'reflection failed',
          parents: [traceNode],
          status: 'failed',
        });
        return;
      }
      ledger.account(result.usage);
      ledger.warnings.push(...result.warnings);
      nodes.push({
        id: nodeId,
        kind: 'reflection',
        batch: b,
        label: `${result.value.lessons.length} lesson(s)`,
        parents: [traceNode],
        status: 'ok',
        ...usageFields(result.usage),
        detail: result.value,
      });
      reflections.push({ reflection: result.value, nodeId });
    },
    signal,
  );
  reflections.sort(
    (x, y) =>
      batch.findIndex((t) => t.id === x.reflection.traceId) - batch.findIndex((t) => t.id === y.reflection.traceId),
  );
  ledger.totals.reflections += reflections.length;
  ledger.totals.lessons += reflections.reduce((sum, r) => sum + r.reflection.lessons.length, 0);
  return { reflections, failed };
}
