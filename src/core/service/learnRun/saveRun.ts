import type { Proposal } from '../../assets/proposal';
import type { AssetSettings } from '../../assets/targets';
import type { CapacityProfiles } from '../../learn/capacity/capacityProfiles';
import type { LatencyProfiles } from '../../learn/capacity/latencyProfiles';
import { sessionKey } from '../../learn/rules/ruleCounting';
import { redactDeep } from '../../secrets/deep';
import type { RuleLedger } from '../../store/ruleLedger';
import { saveRunRecord } from '../../store/runs';
import type { WorkspaceState } from '../../store/workspaceState';
import type { Trace } from '../../trace/model';
import { redactText } from '../../trace/redact';
import { giveUpCounters, type pendingCounters } from './pendingCounters';
import type { LearnResult, LearnWorkspaceOptions } from './options';

/** What a run keeps when it is not a dry run. */
export interface RunToSave {
  options: LearnWorkspaceOptions;
  result: LearnResult;
  proposal: Proposal | undefined;
  /** Counters earlier proposals held, which this proposal carries (see pendingCounters.ts). */
  carried: Awaited<ReturnType<typeof pendingCounters>>;
  playbookPath: string;
  traces: readonly Trace[];
  state: WorkspaceState;
  ruleLedger: RuleLedger;
  profiles: LatencyProfiles;
  capacities: CapacityProfiles;
  /** The open proposals the run's proposal takes the place of. */
  superseded: Proposal[];
}

/**
 * Saves a run: its record, its proposal (and the counters it took from earlier ones), each session's word on each rule,
 * the sessions learned, and what the calls showed of the model's latency and capacity.
 */
export async function saveRun(run: RunToSave): Promise<void> {
  const { options, result, proposal, carried, playbookPath, traces, state, ruleLedger, profiles, capacities } = run;
  const replaced = new Set(run.superseded.map((p) => p.id));
  // the record is read by the webview and the CLI: its warnings may quote an endpoint's error text
  await saveRunRecord(state, options.workspace, redactDeep(result.record, redactText));
  if (proposal) await options.proposals.save(proposal);
  // closed, its decisions kept: what it still asked is in the new proposal (its counters too)
  if (proposal)
    for (const old of run.superseded)
      await options.proposals.save({ ...old, status: 'superseded', supersededBy: proposal.id, tags: [], counts: [] });
  const givingUp = { ...carried, from: carried.from.filter((p) => !replaced.has(p.id)) };
  if (proposal && givingUp.from.length > 0) {
    const said: string[] = [];
    await giveUpCounters(
      options.store,
      options.proposals,
      givingUp,
      { ...options.assets, playbookPath, targets: proposal.targets as AssetSettings['targets'] },
      (m) => said.push(m),
    );
    if (said.length > 0) {
      result.record.warnings.push(...said);
      await saveRunRecord(state, options.workspace, redactDeep(result.record, redactText));
    }
  }
  const keys = new Map(traces.map((t) => [t.id, sessionKey(t)]));
  await ruleLedger.record(
    result.record.id,
    result.record.batches.flatMap((b) =>
      (b.evidence ?? []).map((e) => ({ ...e, sessionKey: keys.get(e.traceId) ?? e.traceId })),
    ),
  );
  await state.markLearned(options.workspace, result.learnedTraceIds, result.record.id, result.failedTraces);
  // Delays measured under faults or a cancel say little about the model: only a clean run's profile is kept.
  if (result.record.status === 'completed' && result.measuredProfile.length >= 2)
    await profiles.save(options.provider.provider, options.provider.model, result.measuredProfile);
  // what a call kept does not depend on how the run ended: every finished call is evidence of the capacity
  await capacities.append(options.provider.provider, options.provider.model, result.capacityObservations);
}
