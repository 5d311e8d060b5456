import type { LearnResult } from '../../learn/run';
import type { AppliedOp } from '../../playbook/apply';
import { layoutRun, storeLayout } from '../../learn/record/layout';

/**
 * Changes made after the batches (upkeep, conflicts) as one more apply node of the run's tree, counted in its totals;
 * the stored layout has a place for every node, so it is laid out again with this one.
 */
export function pushApplyNode(result: LearnResult, name: string, label: string, applied: readonly AppliedOp[]): void {
  const ok = applied.filter((a) => a.status === 'applied');
  result.record.totals.applied += ok.length;
  result.record.totals.skipped += applied.length - ok.length;
  const lastBatch = result.record.batches.at(-1)?.index ?? 0;
  result.record.nodes.push({
    id: `b${lastBatch}:${name}`,
    kind: 'apply',
    batch: lastBatch,
    label,
    parents: [],
    status: 'ok',
    detail: applied.map((a) => ({
      op: a.op.op,
      id: a.id,
      status: a.status,
      reason: a.reason ?? (a.op.op === 'REMOVE' ? a.op.reason : undefined),
      content: 'content' in a.op ? a.op.content : undefined,
      support: a.op.support,
    })),
  });
  if (result.record.layout) {
    try {
      result.record.layout = storeLayout(layoutRun(result.record.nodes), result.record.nodes);
    } catch {
      result.record.layout = undefined;
    }
  }
}
