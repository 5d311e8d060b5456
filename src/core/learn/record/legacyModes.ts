import type { BatchMode } from './batchMode';

/** What the mode's reading needs of a stored node (record.ts's RunNode has it; record.ts reads stored modes here). */
interface StoredNode {
  batch: number;
  kind: string;
  status: string;
  detail?: unknown;
}

/** Modes that records written before batch modes were decided from what ran still hold. */
export const LEGACY_BATCH_MODES = ['naive', 'sequential'] as const;
type StoredMode = BatchMode | (typeof LEGACY_BATCH_MODES)[number];

/**
 * A stored batch's mode as it reads today. Older records named the strategy (naive, sequential), called a batch
 * without reflections (k = 0) single_call, and called every scan parallel_scan even when no global call was made:
 * their nodes tell what ran (a global call that had nothing to merge still reads parallel_scan: it was made). For
 * records written since, this returns the mode as stored.
 */
export function modeOfStoredBatch(
  batch: { index: number; mode: StoredMode; k: number },
  nodes: readonly StoredNode[],
): BatchMode {
  if (batch.k === 0) return 'no_deltas';
  if (batch.mode === 'naive' || batch.mode === 'sequential') return 'single_call';
  if (batch.mode !== 'parallel_scan') return batch.mode;
  const ofBatch = nodes.filter((n) => n.batch === batch.index);
  if (ofBatch.some((n) => n.kind === 'global')) return 'parallel_scan';
  const locals = ofBatch.filter((n) => n.kind === 'local' && n.status === 'ok');
  return locals.length === 1 && operationCount(locals[0]) > 0 ? 'one_group' : 'no_deltas';
}

function operationCount(node: StoredNode): number {
  const ops = (node.detail as { ops?: unknown } | undefined)?.ops;
  return Array.isArray(ops) ? ops.length : 0;
}
