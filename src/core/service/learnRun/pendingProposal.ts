import { isNearDuplicate } from '../../playbook/similarity';
import type { Lesson } from '../../learn/types';
import type { Proposal, RuleChange } from '../../assets/proposal';
import { isOpen, pendingRules } from '../../assets/review';
import { resolveAssetSettings, type AssetTarget } from '../../assets/targets';
import { applyDelta, type AppliedOp } from '../../playbook/apply';
import type { DeltaOp } from '../../playbook/delta';
import type { Playbook } from '../../playbook/model';
import type { ProposalStore } from '../../store/proposals';

// One pending proposal per workspace and target set, like a pull request that is force-pushed: a run learns on top
// of what the open proposal still asks (its undecided rules, under their ids), and its proposal takes that one's
// place. Two proposals waiting side by side would each propose the same rules against the same files.

export interface CarriedProposals {
  /** The open proposals this run's proposal replaces, oldest first. */
  from: Proposal[];
  /** Their undecided rules, by id, as proposed. */
  rules: Map<string, RuleChange>;
  /** Their operations, ADDs carrying the id they were proposed under. */
  ops: DeltaOp[];
}

const sameTargets = (a: readonly string[], b: readonly string[]) => {
  const set = (t: readonly string[]) =>
    [...new Set(resolveAssetSettings({ targets: t as AssetTarget[] }).targets)].sort();
  return set(a).join('\n') === set(b).join('\n');
};

/** The workspace's open learned proposals made for these targets and playbook (the user's own Retire… and Pin… aside). */
export async function pendingProposals(
  proposals: ProposalStore,
  workspace: string,
  targets: readonly AssetTarget[],
  playbookPath: string,
): Promise<CarriedProposals> {
  const from = (await proposals.list(workspace))
    .filter(
      (p) =>
        isOpen(p) &&
        p.provider !== 'you' &&
        (p.assets?.playbookPath ?? playbookPath) === playbookPath &&
        sameTargets(p.assets?.targets ?? p.targets ?? [], targets),
    )
    .reverse();
  const rules = new Map<string, RuleChange>();
  const ops: DeltaOp[] = [];
  for (const proposal of from) {
    // a rule two older proposals both hold (made before there was one) is carried once, from the older
    const taken = new Set(
      pendingRules(proposal)
        .filter((r) => !rules.has(r.id))
        .map((r) => r.id),
    );
    for (const rule of proposal.rules) if (taken.has(rule.id)) rules.set(rule.id, rule);
    for (const { ruleId, op } of proposal.ops)
      if (taken.has(ruleId)) ops.push(op.op === 'ADD' ? { ...op, id: ruleId } : op);
  }
  return { from, rules, ops };
}

/**
 * The playbook the run learns on: the file's, with the undecided additions and rewordings applied (so the model sees
 * them and gives new rules new ids). Removals wait until the run is done (see carryRemovals): the sessions still had
 * those rules in play, and what they say of them is counted. An operation that no longer applies (its rule deleted,
 * its text in the file already) drops out.
 */
export function carryOnto(playbook: Playbook, carried: CarriedProposals): { playbook: Playbook; applied: AppliedOp[] } {
  const ops = carried.ops.filter((op) => op.op !== 'REMOVE');
  if (ops.length === 0) return { playbook, applied: [] };
  const result = applyDelta(playbook, { ops, tags: [], counts: [] });
  return { playbook: result.playbook, applied: result.applied.filter((a) => a.status === 'applied' && a.id) };
}

/** The carried removals the run did not propose itself (on its own evidence), applied after it, listed first. */
export function carryRemovals(result: { playbook: Playbook; applied: AppliedOp[] }, carried: CarriedProposals): void {
  const removed = new Set(
    result.applied.filter((a) => a.status === 'applied' && a.op.op === 'REMOVE').map((a) => a.id),
  );
  const left = carried.ops.filter((op) => op.op === 'REMOVE' && !removed.has(op.id));
  if (left.length === 0) return;
  const again = applyDelta(result.playbook, { ops: left, tags: [], counts: [] });
  result.playbook = again.playbook;
  result.applied.unshift(...again.applied.filter((a) => a.status === 'applied' && a.id));
}

/** The rule ids a group of operations on one rule leaves (an ADD then its REMOVE leaves nothing to propose). */
export function withdrawnInRun(ops: ReadonlyArray<{ ruleId: string; op: DeltaOp }>): Set<string> {
  const out = new Set<string>();
  const byRule = new Map<string, DeltaOp[]>();
  for (const { ruleId, op } of ops) byRule.set(ruleId, [...(byRule.get(ruleId) ?? []), op]);
  for (const [id, list] of byRule) if (list[0].op === 'ADD' && list.at(-1)?.op === 'REMOVE') out.add(id);
  return out;
}

/** One change per rule: a carried rule the run changed again keeps its first operation, with the latest text. */
export function oneChangePerRule<R extends Pick<RuleChange, 'id' | 'content' | 'support'>>(rules: readonly R[]): R[] {
  const out: R[] = [];
  for (const rule of rules) {
    const at = out.findIndex((r) => r.id === rule.id);
    if (at < 0) {
      out.push(rule);
      continue;
    }
    const first = out[at];
    const support = [...first.support];
    for (const s of rule.support) if (!support.some((t) => t.traceId === s.traceId)) support.push(s);
    out[at] = { ...first, content: rule.content ?? first.content, support };
  }
  return out;
}

/**
 * The run's proposal brings nothing the carried one did not: no operation of its own, no counter of its own, and no
 * session more behind a rule it carries (more evidence for a pending rule is news: the rebuilt proposal shows it).
 */
export function bringsNothingNew(
  proposal: Proposal,
  carried: CarriedProposals,
  carriedOps: ReadonlySet<DeltaOp>,
): boolean {
  if (carried.from.length !== 1) return false;
  const [only] = carried.from;
  const sameCounts = JSON.stringify(proposal.counts) === JSON.stringify(only.counts ?? []);
  const sessions = (rule: { support: ReadonlyArray<{ traceId: string }> }) =>
    new Set(rule.support.map((s) => s.traceId));
  const moreEvidence = proposal.rules.some((rule) => {
    const before = only.rules.find((r) => r.id === rule.id);
    return before !== undefined && [...sessions(rule)].some((id) => !sessions(before).has(id));
  });
  return proposal.ops.every((o) => carriedOps.has(o.op)) && proposal.tags.length === 0 && sameCounts && !moreEvidence;
}

/**
 * This run's sessions that learned again what a carried rule says: the run learned on top of the pending rules, so
 * the aggregator set such a lesson aside as already said, and its session is more evidence for the carried rule.
 */
export function restatedCarried(
  carried: CarriedProposals,
  lessons: readonly Lesson[],
): Map<string, Array<{ traceId: string; steps: number[] }>> {
  const more = new Map<string, Array<{ traceId: string; steps: number[] }>>();
  for (const [id, rule] of carried.rules) {
    if (!rule.content) continue;
    const found = lessons
      .filter((l) => l.content === rule.content || isNearDuplicate(l.content, rule.content as string))
      .map((l) => l.evidence);
    if (found.length > 0) more.set(id, found);
  }
  return more;
}
