// No imports: the webview's protocol types use this file too.

/**
 * How a batch's delta was really made, decided from what ran (gepa's Combee records the same paths as
 * no_group_proposals | fallback_single_call | single_group | map_reduce):
 * - no_deltas: nothing to merge — no reflection succeeded, the reflections held no lessons, or no group's local
 *   delta came back with an operation; no call merged an operation (tags are still carried through);
 * - single_call: one aggregation call over all reflections (n < 4, or the naive and sequential strategies);
 * - one_group: groups were planned but one local delta alone came back with operations, applied without a global call;
 * - parallel_scan: local deltas merged by at least one global (higher-level) call.
 */
export const BATCH_MODES = ['no_deltas', 'single_call', 'one_group', 'parallel_scan'] as const;
export type BatchMode = (typeof BATCH_MODES)[number];

/** The mode and what it means for this batch, e.g. `one_group (1 of 3 local deltas, no global call)`. */
export function describeBatchMode(batch: { mode: BatchMode; k: number; levels: number }): string {
  return `${batch.mode} (${modeDetail(batch)})`;
}

function modeDetail({ mode, k, levels }: { mode: BatchMode; k: number; levels: number }): string {
  switch (mode) {
    case 'no_deltas':
      return k === 0 ? 'no reflection succeeded' : 'no operations to merge';
    case 'single_call':
      return 'one aggregation call';
    case 'one_group':
      return `1 of ${k} local deltas, no global call`;
    case 'parallel_scan':
      return `k = ${k}, ${levels} level(s)`;
  }
}

/** How many batches ran in each mode, e.g. `parallel_scan × 4, single_call × 1` (for a run's one-line summary). */
export function countBatchModes(batches: ReadonlyArray<{ mode: BatchMode }>): string {
  return BATCH_MODES.map((mode) => [mode, batches.filter((b) => b.mode === mode).length] as const)
    .filter(([, count]) => count > 0)
    .map(([mode, count]) => `${mode} × ${count}`)
    .join(', ');
}
