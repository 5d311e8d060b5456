import type { RunRecord } from '../record/record';

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
    const add = (id: string, tag: string) => {
      if (tag !== 'helpful' && tag !== 'harmful') return;
      const total = totals.get(id) ?? { helpful: 0, harmful: 0 };
      total[tag]++;
      totals.set(id, total);
      touched.add(id);
    };
    for (const batch of record.batches) {
      // as when applying: each session counted once, or (runs before the ledger) the last tag per rule in a batch
      if (batch.evidence) for (const e of batch.evidence) if (e.counted) add(e.id, e.tag);
      if (!batch.evidence) for (const [id, tag] of new Map(batch.tags.map((t) => [t.id, t.tag] as const))) add(id, tag);
    }
    for (const id of touched)
      history.set(id, [...(history.get(id) ?? []), { at: record.startedAt, ...totals.get(id)! }]);
  }
  return history;
}
