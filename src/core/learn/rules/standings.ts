import { isUnconfirmed } from './confirmedCounters';
import { helpfulnessHistory } from './helpfulness';
import { fixedViolations, VIOLATIONS_TO_REWRITE, wordsByRule } from './lifecycle';
import type { RunRecord } from '../record/record';
import { ruleStage, STALE_AFTER_RUNS, type RuleChip, type RuleStanding, type StandingInput } from './ruleStanding';

/** Ids a run tagged or applied a change to. */
function touchedBy(record: RunRecord): Set<string> {
  const ids = new Set<string>();
  for (const batch of record.batches) {
    for (const t of batch.tags) if (t.tag !== 'neutral') ids.add(t.id);
    // a session that had the rule in play is evidence it is still alive, whatever it said of it
    for (const e of batch.evidence ?? []) ids.add(e.id);
  }
  for (const node of record.nodes) {
    if (node.kind !== 'apply' || !Array.isArray(node.detail)) continue;
    for (const entry of node.detail as Array<{ id?: unknown; status?: unknown }>)
      if (entry.status === 'applied' && typeof entry.id === 'string') ids.add(entry.id);
  }
  return ids;
}

/**
 * Each rule's standing: its stage from the counters this machine confirms of what the playbook claims, the trend from the runs, and
 * how many runs have passed without evidence for it. Only the order of the runs matters, never today's date.
 */
export function ruleStandings(
  records: readonly RunRecord[],
  rules: readonly StandingInput[],
  staleAfterRuns = STALE_AFTER_RUNS,
): Map<string, RuleStanding> {
  const ordered = [...records].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  const history = helpfulnessHistory(ordered);
  const lastTouched = new Map<string, number>();
  ordered.forEach((record, i) => {
    for (const id of touchedBy(record)) lastTouched.set(id, i);
  });
  // Once runs record which rules each session had in play, only those runs can show a rule is quiet: the runs before
  // them never looked (counting them would make every rule stale on the first run after an upgrade).
  const words = wordsByRule(ordered);
  const looked = ordered.map((r) => r.batches.some((b) => b.evidence !== undefined));
  const anyLooked = looked.some(Boolean);
  const standings = new Map<string, RuleStanding>();
  for (const rule of rules) {
    const stage = ruleStage(rule.counters.confirmed.helpful, rule.counters.confirmed.harmful);
    const last = lastTouched.get(rule.id) ?? -1;
    let runsWithoutEvidence = 0;
    for (let i = last + 1; i < ordered.length; i++) if (!anyLooked || looked[i]) runsWithoutEvidence++;
    const chips: RuleChip[] = [stage];
    if (isUnconfirmed(rule.counters)) chips.push('unconfirmed');
    if (runsWithoutEvidence > 0 && runsWithoutEvidence >= staleAfterRuns) chips.push('stale');
    const said = words.get(rule.id) ?? [];
    const violations = said.filter((w) => w.tag === 'violated').length;
    // marked when sessions broke it, failed, and then passed with its own command: what a rewording answers
    if (fixedViolations(said).length >= VIOLATIONS_TO_REWRITE) chips.push('violated');
    if (rule.flagged) chips.push('flagged');
    if (rule.pinned) chips.push('pinned');
    standings.set(rule.id, {
      stage,
      counters: rule.counters,
      chips,
      history: history.get(rule.id) ?? [],
      runsWithoutEvidence,
      violations,
    });
  }
  return standings;
}
