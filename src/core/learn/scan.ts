import { seededRandom, shuffled } from './random';

/** k = max(1, ⌊√n⌋) groups, from the number of reflections before duplication (as in Combee). */
export function groupCount(n: number): number {
  return Math.max(1, Math.floor(Math.sqrt(n)));
}

/** Contiguous near-equal slices: the first `total mod k` groups get one more item. */
export function sliceGroups<T>(items: readonly T[], k: number): T[][] {
  const base = Math.floor(items.length / k);
  const rem = items.length % k;
  const groups: T[][] = [];
  let at = 0;
  for (let i = 0; i < k; i++) {
    const size = base + (i < rem ? 1 : 0);
    groups.push(items.slice(at, at + size));
    at += size;
  }
  return groups;
}

export interface ScanPlan<T> {
  /** What is planned; the batch record's mode says what really ran (batchMode.ts). */
  mode: 'single_call' | 'parallel_scan';
  k: number;
  /** Each group lists item indices into the original (unduplicated) list. */
  groups: number[][];
  duplication: number;
  seed: number;
  items: readonly T[];
}

/**
 * Augmented shuffle + grouping: every item repeated `duplication` times, shuffled with a seeded RNG and cut into
 * k contiguous groups. Fewer than 4 items → one ordinary call.
 */
export function planScan<T>(items: readonly T[], duplication: number, seed: number): ScanPlan<T> {
  const n = items.length;
  const k = groupCount(n);
  if (n < 4) return { mode: 'single_call', k: 1, groups: [items.map((_, i) => i)], duplication: 1, seed, items };
  const augmented: number[] = [];
  for (let copy = 0; copy < duplication; copy++) for (let i = 0; i < n; i++) augmented.push(i);
  const order = shuffled(augmented, seededRandom(seed));
  return { mode: 'parallel_scan', k, groups: sliceGroups(order, k), duplication, seed, items };
}
