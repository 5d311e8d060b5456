import type { EvidenceEntry } from './ruleCounting';
import type { RunRecord } from '../record/record';

// The counters on a playbook line are the repository's claim: anyone who can commit the file can write `helpful=40`.
// What this machine counted itself (its evidence ledger, and the runs recorded before the ledger) confirms them, up to
// what the line says. Only confirmed counters decide anything (stage, retiring, budget, ranking); the claim is shown.

export interface Counters {
  helpful: number;
  harmful: number;
}

export interface RuleCounters {
  /** What the playbook line says. */
  claimed: Counters;
  /** The part of the claim this machine's own counting backs (never more than the claim). */
  confirmed: Counters;
}

export const NO_COUNTS: Readonly<Counters> = Object.freeze({ helpful: 0, harmful: 0 });

/** This machine's counts for a rule: `NO_COUNTS` when it never counted a session for it. */
export type LocalCounts = (ruleId: string) => Counters;

export function confirmCounters(claimed: Counters, local: Counters = NO_COUNTS): RuleCounters {
  return {
    claimed: { helpful: claimed.helpful, harmful: claimed.harmful },
    confirmed: {
      helpful: Math.max(0, Math.min(claimed.helpful, local.helpful)),
      harmful: Math.max(0, Math.min(claimed.harmful, local.harmful)),
    },
  };
}

/** Whether the line claims more than this machine counted. */
export function isUnconfirmed(c: RuleCounters): boolean {
  return c.claimed.helpful !== c.confirmed.helpful || c.claimed.harmful !== c.confirmed.harmful;
}

/** "claimed by the repository's playbook: 40 helpful, 0 harmful; confirmed here: 0 helpful, 0 harmful", if it differs. */
export function describeClaim(c: RuleCounters): string | undefined {
  if (!isUnconfirmed(c)) return undefined;
  const says = (n: Counters) => `${n.helpful} helpful, ${n.harmful} harmful`;
  return `claimed by the repository's playbook: ${says(c.claimed)}; confirmed here: ${says(c.confirmed)}`;
}

/** Tags of the runs recorded before the evidence ledger (batches without evidence), counted as they were applied. */
function preLedgerCounts(records: readonly RunRecord[]): Map<string, Counters> {
  const totals = new Map<string, Counters>();
  for (const record of records)
    for (const batch of record.batches) {
      if (batch.evidence) continue;
      for (const [id, tag] of new Map(batch.tags.map((t) => [t.id, t.tag] as const))) {
        if (tag !== 'helpful' && tag !== 'harmful') continue;
        const total = totals.get(id) ?? { helpful: 0, harmful: 0 };
        total[tag]++;
        totals.set(id, total);
      }
    }
  return totals;
}

/**
 * This machine's counts: the ledger's sessions, the runs before it, and `fresh` (a run's own counted words, not in
 * the ledger until the run is saved).
 */
export function localCounts(
  ledger: { tally(ruleId: string): Counters },
  records: readonly RunRecord[],
  fresh: readonly EvidenceEntry[] = [],
): LocalCounts {
  const before = preLedgerCounts(records);
  const now = new Map<string, Counters>();
  for (const e of fresh) {
    if (!e.counted || (e.tag !== 'helpful' && e.tag !== 'harmful')) continue;
    const total = now.get(e.id) ?? { helpful: 0, harmful: 0 };
    total[e.tag]++;
    now.set(e.id, total);
  }
  return (id) => {
    const parts = [ledger.tally(id), before.get(id) ?? NO_COUNTS, now.get(id) ?? NO_COUNTS];
    return {
      helpful: parts.reduce((n, p) => n + p.helpful, 0),
      harmful: parts.reduce((n, p) => n + p.harmful, 0),
    };
  };
}

/** Confirmed counters of each rule of a list, by id. */
export function confirmedOf(
  rules: ReadonlyArray<{ id: string } & Counters>,
  local: LocalCounts,
): Map<string, RuleCounters> {
  return new Map(rules.map((r) => [r.id, confirmCounters(r, local(r.id))]));
}
