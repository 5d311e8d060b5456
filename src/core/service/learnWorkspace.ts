import { existsSync } from 'node:fs';
import { DEFAULT_PLAYBOOK_PATH } from '../assets/playbookAsset';
import { describeDrops, dropSummary } from '../learn/record/callItems';
import { CapacityProfiles } from '../learn/capacity/capacityProfiles';
import { estimateRun } from '../learn/estimate';
import { rulesInPlay } from '../learn/rules/inPlay';
import { LatencyProfiles } from '../learn/capacity/latencyProfiles';
import { reflectAll, shardOf } from '../learn/reflectionSet';
import type { RuleCounting } from '../learn/rules/ruleCounting';
import { DEFAULTS, learn } from '../learn/run';
import { applyDelta } from '../playbook/apply';
import { emptyPlaybook, parsePlaybook } from '../playbook/markdown';
import { markWarning } from '../playbook/marks';
import { ReviewMemory } from '../store/reviewMemory';
import { RuleLedger } from '../store/ruleLedger';
import { WorkspaceState } from '../store/workspaceState';
import { DEFAULT_CONDENSE_BUDGET } from '../trace/condense';
import { boilerplateWarning, markBoilerplate } from '../trace/turns/boilerplate';
import { resolveInWorkspace, workspaceRelative } from '../trust/workspacePath';
import { readTextIfExists } from '../util/io';
import { assetHistory } from './learnRun/assetHistory';
import { buildProposal } from './learnRun/buildProposal';
import type { GatedOutRule } from './learnRun/gateRules';
import type { LearnWorkspaceOptions, LearnWorkspaceResult } from './learnRun/options';
import { bringsNothingNew, carryOnto, pendingProposals } from './learnRun/pendingProposal';
import { precomputedReflector } from './learnRun/precomputed';
import { saveRun } from './learnRun/saveRun';
import { selectSessions } from './learnRun/selectSessions';
import { pendingCounters, sumCounts } from './learnRun/pendingCounters';
import { readWorkspaceFile } from './proposalFiles';
import { runTargets } from './learnRun/runTargets';

export type { LearnWorkspaceOptions, LearnWorkspaceResult } from './learnRun/options';

// One learning run of a workspace, in four steps: select its unlearned sessions (learnRun/selectSessions.ts), learn
// from them (here: the playbook, the team's review decisions, the model's profiles and the counting), build the
// proposal (learnRun/buildProposal.ts), and save what the run keeps (learnRun/saveRun.ts).

export async function learnWorkspace(options: LearnWorkspaceOptions): Promise<LearnWorkspaceResult> {
  const playbookPath = workspaceRelative(options.playbookPath ?? DEFAULT_PLAYBOOK_PATH, options.workspace);
  // A dry run only reads the store: a workspace known only from its sessions (a team's, not on this machine) has no
  // files here to read or to confine paths in; its playbook is empty.
  const absent = options.dryRun === true && !existsSync(options.workspace);
  // Refused before any work: a path from settings or flags that leaves the workspace (OutsideWorkspaceError).
  const target = absent ? undefined : resolveInWorkspace(options.workspace, playbookPath);
  if (!absent) for (const root of options.assets?.skillRoots ?? []) resolveInWorkspace(options.workspace, root);
  const state = new WorkspaceState(options.store.dir);
  const sessions = await selectSessions(options, state);
  const { givenUp, outsideWindow, invalidStoredTraces } = sessions;
  // boilerplate is found across the whole selection, before any shard or batch sees part of it
  const marked = markBoilerplate(sessions.traces);
  const traces = marked.traces;
  if (traces.length === 0) return { traces, givenUp, outsideWindow, invalidStoredTraces };
  if (options.confirm) {
    const batch =
      typeof options.batchSize === 'number'
        ? options.batchSize
        : options.batchSize === 'all'
          ? traces.length
          : Math.min(traces.length, DEFAULTS.batchBounds.bMax);
    const estimate = estimateRun(traces, {
      strategy: options.strategy ?? 'combee',
      batchSize: batch,
      budgetTokens: options.budgetTokens ?? DEFAULT_CONDENSE_BUDGET,
      pricePerMTokInput: options.pricePerMTokInput,
    });
    if (!(await options.confirm(estimate)))
      return { traces, givenUp, outsideWindow, invalidStoredTraces, declined: true };
  }

  const current = target === undefined ? undefined : await readTextIfExists(target);
  const base = current === undefined ? emptyPlaybook() : parsePlaybook(current);
  if (options.mapOnly) {
    const { shard } = options.mapOnly;
    const share = shard ? shardOf(traces, shard.index, shard.count) : traces;
    const reflections = await reflectAll(
      share,
      base,
      options.reflector,
      { ...options.provider, shard },
      options.concurrency ?? DEFAULTS.concurrency,
      options.signal,
      (done) => options.onProgress?.(`reflected on ${done}/${share.length} session(s)`, done / share.length),
    );
    return { traces: share, givenUp, outsideWindow, invalidStoredTraces, reflections };
  }
  // The open proposal for the same targets: this run learns on top of what it still asks, and takes its place
  const targets = runTargets(
    options.assets?.targets,
    sessions.workspaceSessions,
    (rel) => readWorkspaceFile(options.workspace, rel),
    options.assets?.skillRoots,
  );
  const pending = await pendingProposals(options.proposals, options.workspace, targets.targets, playbookPath);
  const onTop = carryOnto(base, pending);
  // The team's decisions: rules they deleted since the last accept, and changes they rejected, are not re-proposed.
  const memory = new ReviewMemory(state, options.workspace);
  if (!options.dryRun) await memory.noticeDeletions(current);
  const remembered = await memory.load();
  const veto = ReviewMemory.veto(remembered);
  const profiles = new LatencyProfiles(options.store.dir);
  const latencyProfile =
    options.batchSize === 'auto' ? await profiles.load(options.provider.provider, options.provider.model) : undefined;
  // what this model's aggregation calls kept before: the plan fits the capacity it showed (capacityLearning.ts)
  const capacities = new CapacityProfiles(options.store.dir);
  const capacityObservations = options.aggregator.capacity
    ? await capacities.load(options.provider.provider, options.provider.model)
    : [];
  // each session counted once per rule it had in play (see learn/rules/ruleCounting.ts)
  const ruleLedger = await RuleLedger.load(state, options.workspace);
  const history = await assetHistory(options.workspace);
  const claimed = new Set<string>();
  const counting: RuleCounting = {
    inPlay: (trace) => rulesInPlay(trace, history),
    counted: (ruleId, key) => ruleLedger.counted(ruleId, key) || claimed.has(`${ruleId}\n${key}`),
    claim: (ruleId, key) => claimed.add(`${ruleId}\n${key}`),
  };
  const early: string[] = [];
  const precomputed = options.precomputed && precomputedReflector(options, traces, base, (m) => early.push(m));
  const result = await learn({
    counting,
    traces,
    playbook: onTop.playbook,
    reflector: precomputed ?? options.reflector,
    aggregator: options.aggregator,
    provider: options.provider,
    workspace: options.workspace,
    strategy: options.strategy,
    batchSize: options.batchSize === 'all' ? traces.length : options.batchSize,
    seed: options.seed,
    concurrency: options.concurrency,
    signal: options.signal,
    onProgress: options.onProgress,
    onSnapshot: options.onSnapshot,
    veto,
    limits: options.limits,
    embed: options.embed,
    latencyProfile,
    capacityObservations,
  });
  // the carried rules come first, as if this run had proposed them: one proposal holds them and the new ones
  result.applied = [...onTop.applied, ...result.applied];
  result.record.warnings.unshift(...early);
  if (marked.marked > 0) result.record.warnings.unshift(boilerplateWarning(marked.marked));
  const drops = describeDrops(dropSummary(result.record.nodes));
  if (drops) result.record.warnings.push(drops);
  const markProblems = markWarning(base, playbookPath);
  if (markProblems) result.record.warnings.push(markProblems);
  // counters earlier proposals hold that never reached the file: this proposal carries them (see pendingCounters.ts)
  const carried = await pendingCounters(options.proposals, options.workspace, playbookPath);
  if (carried.counts.length > 0) {
    result.playbook = applyDelta(result.playbook, { ops: [], tags: [], counts: carried.counts }).playbook;
    result.counts = sumCounts(carried.counts, result.counts);
  }
  if (precomputed && precomputed.misses > 0)
    result.record.warnings.push(
      `${precomputed.hits} reflection(s) came from the map phase and ${precomputed.misses} were made here (sessions it did not reflect, or a batch that saw a playbook changed by the batches before it)`,
    );
  for (const { id, reason, count } of givenUp)
    result.record.warnings.push(
      `session ${id} is not learned again by itself: its learning failed ${count} times (last: ${reason})`,
    );

  const gatedOut: GatedOutRule[] = [];
  const built = await buildProposal({
    gatedOut,
    options,
    result,
    base,
    traces,
    sessions,
    playbookPath,
    state,
    ruleLedger,
    remembered,
    veto,
    precomputed,
    targets,
    carried: pending,
  });
  // nothing new: the open proposal stays as it is (its id, its review), no copy of it takes its place
  const stillPending = built && bringsNothingNew(built, pending, new Set(pending.ops)) ? pending.from[0] : undefined;
  const proposal = stillPending ? undefined : built;
  const superseded = proposal ? pending.from.map((p) => p.id) : [];
  if (!options.dryRun)
    await saveRun({
      options,
      result,
      proposal,
      carried,
      playbookPath,
      traces,
      state,
      ruleLedger,
      profiles,
      capacities,
      superseded: pending.from.filter((p) => superseded.includes(p.id)),
    });
  return {
    traces,
    givenUp,
    outsideWindow,
    failedTraces: result.failedTraces,
    proposal,
    ...(superseded.length > 0 ? { superseded } : {}),
    ...(stillPending ? { stillPending: stillPending.id } : {}),
    record: result.record,
    invalidStoredTraces,
    gatedOut,
  };
}
