import type { Playbook } from '../playbook/model';
import type { Trace } from '../trace/model';
import { mapLimit } from '../util/concurrency';
import { usageFields, type RunJournal } from './journal';
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

/** The order the reflections are started in (indices into the batch), and who hears of each as it ends. */
export interface ReflectionSchedule {
  order: readonly number[];
  /** Called once per trace when its reflection is done: the reflection, or `undefined` when it failed. */
  onDone(index: number, mapped: MappedReflection | undefined): void;
}

/**
 * Map: every trace of batch `b` reflected on against the same frozen playbook, `concurrency` calls at a time, in
 * the batch's order or the schedule's.
 */
export async function reflectBatch(
  batch: readonly Trace[],
  b: number,
  frozen: Playbook,
  reflector: Reflector,
  concurrency: number,
  journal: RunJournal,
  schedule?: ReflectionSchedule,
): Promise<MapResult> {
  const reflections: MappedReflection[] = [];
  const failed = new Map<string, string>();
  const { nodes, signal } = journal;
  const order = schedule?.order ?? batch.map((_, i) => i);
  await mapLimit(
    order,
    concurrency,
    async (index) => {
      const trace = batch[index];
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
      const result = await journal.guarded(() => reflector.reflect(trace, frozen, signal), `reflection on ${trace.id}`);
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
        schedule?.onDone(index, undefined);
        return;
      }
      journal.account(result.usage);
      journal.warnings.push(...result.warnings);
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
      const mapped = { reflection: result.value, nodeId };
      reflections.push(mapped);
      schedule?.onDone(index, mapped);
    },
    signal,
  );
  const position = new Map(batch.map((t, i) => [t.id, i]));
  reflections.sort((x, y) => (position.get(x.reflection.traceId) ?? 0) - (position.get(y.reflection.traceId) ?? 0));
  journal.totals.reflections += reflections.length;
  journal.totals.lessons += reflections.reduce((sum, r) => sum + r.reflection.lessons.length, 0);
  return { reflections, failed };
}
