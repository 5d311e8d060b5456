import { isOpen } from '../../assets/review';
import type { Proposal } from '../../assets/proposal';
import type { AssetSettings } from '../../assets/targets';
import type { RuleCount } from '../../playbook/delta';
import type { ProposalStore } from '../../store/proposals';
import type { TraceStore } from '../../store/traceStore';
import { chooseRules } from '../proposalFiles';
import { proposalAssets } from '../review/assets';

// A run's counters reach the playbook file only with an accept, but the evidence ledger counts each (rule, session)
// pair when the run is made: counters left in a proposal that waits (a newer one accepted instead) or was rejected
// (for its new rules) would never be counted again. The next run carries them: its proposal holds them with its
// own, and the older proposal gives them up, so whichever is accepted the file counts each session once.

export interface PendingCounters {
  counts: RuleCount[];
  /** The proposals they come from, to be given up once the run's proposal holds them. */
  from: Proposal[];
}

/** Sums increments by rule, in id order. */
export function sumCounts(...lists: ReadonlyArray<readonly RuleCount[]>): RuleCount[] {
  const totals = new Map<string, RuleCount>();
  for (const count of lists.flat()) {
    const total = totals.get(count.id) ?? { id: count.id, helpful: 0, harmful: 0 };
    total.helpful += count.helpful;
    total.harmful += count.harmful;
    totals.set(count.id, total);
  }
  return [...totals.values()].sort((a, b) => a.id.localeCompare(b.id));
}

/** Counters of the workspace's proposals that did not reach the playbook file: still waiting for it, or rejected. */
export async function pendingCounters(
  proposals: ProposalStore,
  workspace: string,
  playbookPath: string,
): Promise<PendingCounters> {
  const from = (await proposals.list(workspace)).filter(
    (p) =>
      (p.counts ?? []).length > 0 &&
      (p.status === 'rejected' || (isOpen(p) && p.files.some((f) => f.path === playbookPath))),
  );
  return { counts: sumCounts(...from.map((p) => p.counts ?? [])), from };
}

/**
 * The older proposals without the counters a newer one now holds: a rejected one keeps its decisions, an open one is
 * rendered again against the files as they are now, its rule changes as they were (and closed if nothing is left).
 */
export async function giveUpCounters(
  store: TraceStore,
  proposals: ProposalStore,
  pending: PendingCounters,
  assets: Partial<AssetSettings> & { playbookPath: string },
  warn: (message: string) => void,
): Promise<void> {
  for (const proposal of pending.from) {
    if (proposal.status === 'rejected') {
      await proposals.save({ ...proposal, tags: [], counts: [] });
      continue;
    }
    // rendered again with the settings it was made with, as every decision on it is
    const own = proposalAssets(proposal, assets);
    const split = await chooseRules(store, proposal, [], own, warn);
    // told that the playbook was written: the rest is rendered without the counters
    const rest = split.remaining([own.playbookPath]);
    await proposals.save({ ...rest, status: rest.files.length === 0 ? 'accepted' : proposal.status });
  }
}
