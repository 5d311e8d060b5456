import type { RunRecord } from './record';

export interface HelpfulnessPoint {
  at: string;
  helpful: number;
  harmful: number;
}

/**
 * Each rule's helpful / harmful counts over time, from the tags recorded by every run (oldest first), cumulative.
 * The playbook holds only the latest counters; the runs hold how they got there.
 */
export function helpfulnessHistory(records: RunRecord[]): Map<string, HelpfulnessPoint[]> {
  const history = new Map<string, HelpfulnessPoint[]>();
  const totals = new Map<string, { helpful: number; harmful: number }>();
  for (const record of [...records].sort((a, b) => a.startedAt.localeCompare(b.startedAt))) {
    const touched = new Set<string>();
    for (const batch of record.batches) {
      // As when applying: the last tag per rule in a batch counts.
      const last = new Map(batch.tags.map((t) => [t.id, t.tag] as const));
      for (const [id, tag] of last) {
        if (tag === 'neutral') continue;
        const total = totals.get(id) ?? { helpful: 0, harmful: 0 };
        total[tag]++;
        totals.set(id, total);
        touched.add(id);
      }
    }
    for (const id of touched)
      history.set(id, [...(history.get(id) ?? []), { at: record.startedAt, ...totals.get(id)! }]);
  }
  return history;
}
