import { existsSync } from 'node:fs';
import { DEFAULT_PLAYBOOK_PATH } from '../assets/playbookAsset';
import { describeDrops, dropSummary } from '../learn/record/callItems';
import { CapacityProfiles } from '../learn/capacity/capacityProfiles';
import { estimateRun, type RunEstimate } from '../learn/estimate';
import type { Trace } from '../trace/model';
import { rulesInPlay } from '../learn/rules/inPlay';
import { LatencyProfiles } from '../learn/capacity/latencyProfiles';
import { reflectAll, shardOf } from '../learn/reflectionSet';
import type { RuleCounting } from '../learn/rules/ruleCounting';
import { DEFAULTS, learn } from '../learn/run';
import { applyDelta } from '../playbook/apply';
import { emptyPlaybook, parsePlaybook } from '../playbook/markdown';
import type { Playbook } from '../playbook/model';
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
import type { LearnResult, LearnWorkspaceOptions, LearnWorkspaceResult } from './learnRun/options';
import { bringsNothingNew, carryOnto, pendingProposals } from './learnRun/pendingProposal';
import { precomputedReflector } from './learnRun/precomputed';
import { saveRun } from './learnRun/saveRun';
import { selectSessions, type SessionSelection } from './learnRun/selectSessions';
import { pendingCounters, sumCounts } from './learnRun/pendingCounters';
import { readWorkspaceFile } from './proposalFiles';
import { runTargets } from './learnRun/runTargets';

export type { LearnWorkspaceOptions, LearnWorkspaceResult } from './learnRun/options';

// One learning run of a workspace, in four steps: select its unlearned sessions (learnRun/selectSessions.ts), learn
// from them (here: the playbook, the team's review decisions, the model's profiles and the counting), build the
// proposal (learnRun/buildProposal.ts), and save what the run keeps (learnRun/saveRun.ts).

/** What the run will take, shown before it starts (sessions, calls, tokens, cost). */
function estimateOf(options: LearnWorkspaceOptions, traces: Trace[]): RunEstimate {
  const batch =
    typeof options.batchSize === 'number'
      ? options.batchSize
      : options.batchSize === 'all'
        ? traces.length
        : Math.min(traces.length, DEFAULTS.batchBounds.bMax);
  return estimateRun(traces, {
    strategy: options.strategy ?? 'combee',
    batchSize: batch,
    budgetTokens: options.budgetTokens ?? DEFAULT_CONDENSE_BUDGET,
    pricePerMTokInput: options.pricePerMTokInput,
  });
}

/** Each session counted once per rule it had in play: not again after the ledger, nor twice in this run. */
function countingOnce(ruleLedger: RuleLedger, history: Awaited<ReturnType<typeof assetHistory>>): RuleCounting {
  const claimed = new Set<string>();
  return {
    inPlay: (trace) => rulesInPlay(trace, history),
    counted: (ruleId, key) => ruleLedger.counted(ruleId, key) || claimed.has(`${ruleId}\n${key}`),
    claim: (ruleId, key) => claimed.add(`${ruleId}\n${key}`),
  };
}

/** The map phase alone (a CI runner's shard): the reflections on its share of the sessions, nothing saved. */
async function mapPhase(
  options: LearnWorkspaceOptions,
  { shard }: NonNullable<LearnWorkspaceOptions['mapOnly']>,
  traces: Trace[],
  base: Playbook,
) {
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
  return { share, reflections };
}

/** What the run says beside its rules: boilerplate set aside, dropped items, bad marks, reflections made here, given-up sessions. */
function noteWarnings(
  record: LearnResult['record'],
  notes: {
    early: string[];
    boilerplate: number;
    base: Playbook;
    playbookPath: string;
    precomputed: ReturnType<typeof precomputedReflector> | undefined;
    givenUp: SessionSelection['givenUp'];
  },
): void {
  const { warnings } = record;
  warnings.unshift(...notes.early);
  if (notes.boilerplate > 0) warnings.unshift(boilerplateWarning(notes.boilerplate));
  const drops = describeDrops(dropSummary(record.nodes));
  if (drops) warnings.push(drops);
  const markProblems = markWarning(notes.base, notes.playbookPath);
  if (markProblems) warnings.push(markProblems);
  const { precomputed } = notes;
  if (precomputed && precomputed.misses > 0)
    warnings.push(
      `${precomputed.hits} reflection(s) came from the map phase and ${precomputed.misses} were made here (sessions it did not reflect, or a batch that saw a playbook changed by the batches before it)`,
    );
  for (const { id, reason, count } of notes.givenUp)
    warnings.push(`session ${id} is not learned again by itself: its learning failed ${count} times (last: ${reason})`);
}

/** What this model showed in earlier runs: its latency (for an automatic batch size) and what its calls kept. */
async function modelProfiles(options: LearnWorkspaceOptions) {
  const { provider, model } = options.provider;
  const profiles = new LatencyProfiles(options.store.dir);
  const latencyProfile = options.batchSize === 'auto' ? await profiles.load(provider, model) : undefined;
  // what this model's aggregation calls kept before: the plan fits the capacity it showed (capacityLearning.ts)
  const capacities = new CapacityProfiles(options.store.dir);
  const capacityObservations = options.aggregator.capacity ? await capacities.load(provider, model) : [];
  return { profiles, latencyProfile, capacities, capacityObservations };
}

/**
 * The playbook's path in the workspace, and its file; refused before any work when a path from settings or flags
 * leaves the workspace (OutsideWorkspaceError). A dry run only reads the store: a workspace known only from its
 * sessions (a team's, not on this machine) has no files here to read or to confine paths in; its playbook is empty.
 */
function confinedPaths(options: LearnWorkspaceOptions): { playbookPath: string; target: string | undefined } {
  const playbookPath = workspaceRelative(options.playbookPath ?? DEFAULT_PLAYBOOK_PATH, options.workspace);
  if (options.dryRun === true && !existsSync(options.workspace)) return { playbookPath, target: undefined };
  const target = resolveInWorkspace(options.workspace, playbookPath);
  for (const root of options.assets?.skillRoots ?? []) resolveInWorkspace(options.workspace, root);
  return { playbookPath, target };
}

export async function learnWorkspace(options: LearnWorkspaceOptions): Promise<LearnWorkspaceResult> {
  const { playbookPath, target } = confinedPaths(options);
  const state = new WorkspaceState(options.store.dir);
  const sessions = await selectSessions(options, state);
  const { givenUp, outsideWindow, invalidStoredTraces } = sessions;
  // boilerplate is found across the whole selection, before any shard or batch sees part of it
  const marked = markBoilerplate(sessions.traces);
  const traces = marked.traces;
  if (traces.length === 0) return { traces, givenUp, outsideWindow, invalidStoredTraces };
  if (options.confirm && !(await options.confirm(estimateOf(options, traces))))
    return { traces, givenUp, outsideWindow, invalidStoredTraces, declined: true };

  const current = target === undefined ? undefined : await readTextIfExists(target);
  const base = current === undefined ? emptyPlaybook() : parsePlaybook(current);
  if (options.mapOnly) {
    const { share, reflections } = await mapPhase(options, options.mapOnly, traces, base);
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
  const { profiles, latencyProfile, capacities, capacityObservations } = await modelProfiles(options);
  // each session counted once per rule it had in play (see learn/rules/ruleCounting.ts)
  const ruleLedger = await RuleLedger.load(state, options.workspace);
  const counting = countingOnce(ruleLedger, await assetHistory(options.workspace));
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
  noteWarnings(result.record, { early, boilerplate: marked.marked, base, playbookPath, precomputed, givenUp });
  // counters earlier proposals hold that never reached the file: this proposal carries them (see pendingCounters.ts)
  const carried = await pendingCounters(options.proposals, options.workspace, playbookPath);
  if (carried.counts.length > 0) {
    result.playbook = applyDelta(result.playbook, { ops: [], tags: [], counts: carried.counts }).playbook;
    result.counts = sumCounts(carried.counts, result.counts);
  }

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
