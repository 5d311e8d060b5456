import type { Proposal } from '../../assets/proposal';
import { pendingRules } from '../../assets/review';
import type { ProposalStore } from '../../store/proposals';
import type { TraceStore } from '../../store/traceStore';
import { sumCounts } from '../learnRun/pendingCounters';
import { chooseRules } from '../proposalFiles';
import { proposalAssets } from './assets';

// Undoing a decision on a proposal that a newer run has since superseded: the rules the decision took reopen, and
// they wait where the review now is, in the proposal that took its place (one pending proposal, never two).

export interface FoldBack {
  /** The proposal that took the reopened rules, saved. */
  into?: Proposal;
  /** The rules it took. */
  rules: string[];
}

/**
 * `before` is the superseded proposal as it was before the decision undone, `now` as it is stored (superseded, the
 * decision recorded). What `before` had pending and `now` has decided goes into `now.supersededBy`, rendered again
 * against the files as they are after the undo.
 */
export async function foldIntoSuccessor(
  deps: { store: TraceStore; proposals: ProposalStore },
  before: Proposal,
  now: Proposal,
  playbookWritten: boolean,
): Promise<FoldBack> {
  if (!now.supersededBy) return { rules: [] };
  const successor = await deps.proposals.load(now.workspace, now.supersededBy);
  if (!successor) return { rules: [] };
  const decidedNow = new Set(now.reviewed.rules.map((r) => r.id));
  const known = new Set([...successor.rules.map((r) => r.id), ...successor.reviewed.rules.map((r) => r.id)]);
  const reopened = pendingRules(before).filter((r) => decidedNow.has(r.id) && !known.has(r.id));
  // the counters the undone decision wrote with the playbook file go back with the rest of the review
  const counts = playbookWritten ? (before.counts ?? []) : [];
  if (reopened.length === 0 && counts.length === 0) return { rules: [] };
  const ids = new Set(reopened.map((r) => r.id));
  const decided = new Set(successor.reviewed.rules.map((r) => r.id));
  const merged: Proposal = {
    ...successor,
    rules: [...successor.rules, ...reopened],
    ops: [...successor.ops.filter((o) => !decided.has(o.ruleId)), ...before.ops.filter((o) => ids.has(o.ruleId))],
    counts: sumCounts(successor.counts ?? [], counts),
  };
  const assets = proposalAssets(successor);
  const split = await chooseRules(deps.store, merged, [], assets, () => undefined);
  const again = split.remaining([]);
  const decisions = successor.reviewed.rules.length + successor.reviewed.files.length;
  const into: Proposal = {
    ...again,
    status: again.files.length === 0 ? successor.status : decisions > 0 ? 'partial' : 'pending',
  };
  await deps.proposals.save(into);
  return { into, rules: reopened.map((r) => r.id) };
}
