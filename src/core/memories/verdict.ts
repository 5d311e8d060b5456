import { ruleEvidence, sessionSignals, type RuleEvidence } from '../learn/ruleEvidence';
import { rulePurpose } from '../learn/sameRule';
import { isNearDuplicate } from '../playbook/similarity';
import type { Bullet } from '../playbook/model';
import type { Trace } from '../trace/model';
import type { MemoryItem, MemorySessionEvidence, MemoryVerdict } from './types';

// A memory is judged as the rule it would be: each stored session of the workspace is read by the same evidence
// reading the playbook's rules get (ruleEvidence.ts), as if the memory had been in play there.

function supports(evidence: RuleEvidence): boolean {
  // the rule was right and the session broke it: only when its own way then fixed what the other way broke
  return evidence.tag === 'helpful' || (evidence.tag === 'violated' && evidence.fix !== undefined);
}

/** A rule already says it: near the same words, or the same command for the same purpose (a memory has no section). */
function statesSame(memory: string, rule: string): boolean {
  if (isNearDuplicate(memory, rule)) return true;
  const purpose = rulePurpose(memory);
  return purpose !== undefined && purpose === rulePurpose(rule);
}

/**
 * Each memory's verdict: supported when more sessions bear it out than go against it; contradicted when as many or
 * more go against it; unverified when none says anything; flagged (never judged, never proposed) when its text
 * screened as risky. Sessions are read in id order, so the same memories and sessions give the same verdicts.
 */
export function judgeMemories(
  items: readonly MemoryItem[],
  traces: readonly Trace[],
  playbook: readonly Bullet[] = [],
): MemoryVerdict[] {
  const judged = items.filter((i) => i.flags.length === 0);
  const support = new Map<string, MemorySessionEvidence[]>(judged.map((i) => [i.id, []]));
  const against = new Map<string, MemorySessionEvidence[]>(judged.map((i) => [i.id, []]));
  const rules = judged.map((i) => ({ id: i.id, content: i.text }));
  const sorted = [...traces].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (rules.length > 0)
    for (const trace of sorted) {
      for (const evidence of ruleEvidence(trace, rules, sessionSignals(trace))) {
        const entry = { traceId: trace.id, steps: evidence.steps, reason: evidence.reason };
        if (supports(evidence)) support.get(evidence.id)?.push(entry);
        else if (evidence.tag === 'harmful') against.get(evidence.id)?.push(entry);
      }
    }
  return items.map((item) => {
    const sameAs = playbook.find((b) => statesSame(item.text, b.content))?.id;
    if (item.flags.length > 0) return { item, verdict: 'flagged', support: [], against: [], sameAs };
    const pro = support.get(item.id) ?? [];
    const con = against.get(item.id) ?? [];
    const verdict =
      con.length > 0 && con.length >= pro.length ? 'contradicted' : pro.length > 0 ? 'supported' : 'unverified';
    return { item, verdict, support: pro, against: con, sameAs };
  });
}
