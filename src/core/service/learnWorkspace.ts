import { existsSync } from 'node:fs';
import { resolveInWorkspace, workspaceRelative } from '../trust/workspacePath';
import { DEFAULT_PLAYBOOK_PATH } from '../assets/playbookAsset';
import { lessonsFromRecord } from '../assets/skills';
import { renderAssets, type AssetSettings } from '../assets/targets';
import { keptAssets } from './review/assets';
import { runTargets } from './runTargets';
import { decisionNotes } from '../learn/priorDecisions';
import { PROPOSAL_VERSION, type FileChange, type Proposal } from '../assets/proposal';
import type { ProposalStore } from '../store/proposals';
import { estimateRun, type RunEstimate } from '../learn/estimate';
import { LatencyProfiles } from '../learn/latencyProfiles';
import { CapacityProfiles } from '../learn/capacityProfiles';
import { describeDrops, dropSummary } from '../learn/callItems';
import { DEFAULTS, learn, type Strategy } from '../learn/run';
import { DEFAULT_CONDENSE_BUDGET } from '../trace/condense';
import type { RunRecord } from '../learn/record';
import type { Aggregator, ProviderInfo, Reflector } from '../learn/types';
import type { EmbedFn } from '../learn/types';
import { emptyPlaybook, parsePlaybook, serializePlaybook } from '../playbook/markdown';
import type { Trace } from '../trace/model';
import type { TraceStore } from '../store/traceStore';
import { createWorkspaceMatcher } from '../trace/workspaceMatch';
import { readTextIfExists } from '../util/io';
import { ReviewMemory } from '../store/reviewMemory';
import { saveRunRecord } from '../store/runs';
import { WorkspaceState } from '../store/workspaceState';
import { learningStatus } from './learningStatus';
import { listWorkspaceFolders, readWorkspaceFile } from './proposalFiles';
import { screenProposal } from './screenProposal';
import { proposeEnforcement } from './proposeEnforcement';
import { groundingGap } from './lessonGrounding';
import { playbookForOtherAssets } from '../trust/hold';
import { redactDeep } from '../secrets/deep';
import type { LiveRunSnapshot } from '../learn/liveRun';
import { redactText } from '../trace/redact';
import { rulesInPlay } from '../learn/inPlay';
import { sessionKey, type RuleCounting } from '../learn/ruleCounting';
import { RuleLedger } from '../store/ruleLedger';
import { assetHistory } from './assetHistory';
import { budgetOps, DEFAULT_PLAYBOOK_BUDGET_TOKENS } from '../learn/budget';
import { lifecycleOps, wordsByRule } from '../learn/lifecycle';
import { lintRules } from '../learn/ruleLint';
import { findManagedBlock } from '../assets/managedBlock';
import { confirmCounters, localCounts, type LocalCounts } from '../learn/confirmedCounters';
import { ruleStandings, STALE_AFTER_RUNS, type RuleStanding } from '../learn/ruleStanding';
import { windowStart } from '../learn/window';
import { applyDelta } from '../playbook/apply';
import type { DeltaOp } from '../playbook/delta';
import { pinnedIds } from '../playbook/marks';
import { bullets } from '../playbook/model';
import { loadRunRecords } from '../store/runs';
import { pushApplyNode } from './applyNode';
import { resolveConflicts } from './resolveConflicts';
import { giveUpCounters, pendingCounters, sumCounts } from './pendingCounters';
import type { AgentId } from '../trace/model';
import type { TraceSummary } from '../trace/summary';
import { corroborationOf } from '../team/corroboration';
import { modelChanges, runAuthor, withAuthors } from './ruleAuthors';
import { cleanAuthor, withAuthorMarks, type RuleAuthor } from '../playbook/authorMark';
import type { Playbook } from '../playbook/model';
import { agentMemoryReport, memoryNote, proposeMemories, type AgentMemorySettings } from './agentMemories';
import { agentName } from '../memories/candidates';
import type { MemoryVerdict } from '../memories/types';
import {
  indexReflectionSets,
  playbookSha,
  PrecomputedReflector,
  reflectAll,
  shardOf,
  type ReflectionSet,
} from '../learn/reflectionSet';

export interface LearnWorkspaceOptions {
  store: TraceStore;
  proposals: ProposalStore;
  workspace: string;
  reflector: Reflector;
  aggregator: Aggregator;
  provider: ProviderInfo;
  /** The provider's embeddings, when it has them (semantic duplicate detection). */
  embed?: EmbedFn;
  playbookPath?: string;
  strategy?: Strategy;
  /** `all`: one batch of every selected session (each reflected against the same playbook, as a map across machines needs). */
  batchSize?: number | 'auto' | 'all';
  seed?: number;
  /**
   * Only sessions that ended within this many days of the workspace's newest session (0 or undefined: no window).
   * Anchored to the sessions, not to the clock, so the same store gives the same selection on any day.
   */
  windowDays?: number;
  /** Learn from every stored session, not only those recorded in this workspace. */
  allWorkspaces?: boolean;
  /** Compute the proposal without saving it or marking sessions learned. */
  dryRun?: boolean;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (message: string, fraction: number) => void;
  /** The run's tree while it grows (see learn/liveRun.ts). */
  onSnapshot?: (snapshot: LiveRunSnapshot) => void;
  /** Asked once the sessions are selected, before any model call; false cancels the run before it starts. */
  confirm?: (estimate: RunEstimate) => Promise<boolean>;
  /** Per-run token and money limits (a run that reaches one stops cleanly, keeping finished batches). */
  limits?: { maxTokens?: number; maxCostUsd?: number };
  /** USD per million input tokens, for the estimate shown before a large run. */
  pricePerMTokInput?: number;
  /** Which assets to render and how (targets, rules budget, skill roots). */
  assets?: Partial<AssetSettings>;
  /** Token budget of one condensed session (for the estimate). */
  budgetTokens?: number;
  /** Anchors the window here instead of at the newest session (tests, or "the last N days from today"). */
  now?: Date;
  /** Only sessions that ended at or after this time (ISO), on top of the window. */
  since?: string;
  /** Only sessions of these agents. */
  agents?: readonly AgentId[];
  /**
   * The map phase alone (a CI runner's shard): reflect on the selected sessions (a 1-based shard's share of them)
   * against the playbook as it is, and hand the reflections back. Nothing is saved or marked learned.
   */
  mapOnly?: { shard?: { index: number; count: number } };
  /** Reviewed by the team as a pull request (`learn --pr-body`): see screenProposal's `teamReview`. */
  teamReview?: boolean;
  /** Reflections made elsewhere (shards, the Batch API): used for the sessions and playbook they were made for. */
  precomputed?: readonly ReflectionSet[];
  /**
   * The precomputed sets were read from files (CI shards' artifacts, which anyone with them could write): each lesson
   * is believed only as far as its cited steps in this machine's store show it, and the rules drawn from the rest are
   * flagged.
   */
  precomputedFromFiles?: boolean;
  /** Read the agents' own memories as candidate rules, checked against the sessions (see service/agentMemories.ts). */
  agentMemories?: AgentMemorySettings;
}

/** The reflector that takes the map phase's reflections, after saying what they do not cover. */
function precomputedReflector(
  options: LearnWorkspaceOptions,
  traces: readonly Trace[],
  base: Playbook,
  warn: (message: string) => void,
): PrecomputedReflector {
  const sets = options.precomputed ?? [];
  const counts = new Set(sets.flatMap((s) => (s.shard ? [s.shard.count] : [])));
  if (counts.size > 1) warn(`the reflection sets come from runs of different shard counts (${[...counts].join(', ')})`);
  for (const count of counts)
    for (let i = 1; i <= count; i++)
      if (!sets.some((s) => s.shard?.index === i && s.shard.count === count))
        warn(`shard ${i}/${count} is missing: its sessions are reflected here`);
  const sha = playbookSha(base);
  if (sets.some((s) => s.playbookSha !== sha))
    warn(
      'some reflections were made against another playbook than the one here (it changed between the map and this run): those sessions are reflected again here',
    );
  const entries = indexReflectionSets(
    sets,
    traces,
    options.provider,
    warn,
    options.precomputedFromFiles ? groundingGap : undefined,
    base,
  );
  const uncovered = traces.filter((t) => !entries.has(t.id)).length;
  if (uncovered > 0) warn(`${uncovered} of ${traces.length} session(s) have no reflection from the map phase`);
  return new PrecomputedReflector(options.reflector, entries);
}

/**
 * The rules' lifecycle and the playbook's budget as operations of this run's proposal: applied to its playbook
 * (reviewed with the rest) and shown in its tree as one more apply node. Only after a completed run: a partial one
 * says too little of staleness.
 */
async function proposeUpkeep(
  records: readonly RunRecord[],
  local: LocalCounts,
  result: Awaited<ReturnType<typeof learn>>,
  veto: (op: DeltaOp) => string | undefined,
  budgetTokens: number,
  staleAfterRuns: number,
): Promise<void> {
  const pinned = pinnedIds(result.playbook);
  const current = bullets(result.playbook);
  // what the playbook lines claim beyond this machine's counting decides nothing (confirmedCounters.ts)
  const standings = ruleStandings(
    records,
    current.map((b) => ({
      id: b.id,
      counters: confirmCounters(b, local(b.id)),
      flagged: false,
      pinned: pinned.has(b.id),
    })),
    staleAfterRuns,
  );
  const ops = lifecycleOps(
    current.map((b) => {
      const standing = standings.get(b.id) as RuleStanding;
      return { ...b, ...standing.counters.confirmed, pinned: pinned.has(b.id), standing };
    }),
    wordsByRule(records),
  ).filter((op) => veto(op) === undefined);
  const lifecycle = applyDelta(result.playbook, { ops, tags: [] });
  // then the budget, on what the run and its lifecycle left: the rules this run adds stay, as do the pinned ones
  const added = result.applied
    .filter((a) => a.status === 'applied' && a.op.op === 'ADD' && a.id)
    .map((a) => a.id as string);
  const budget = budgetOps(lifecycle.playbook, budgetTokens, new Set([...added, ...pinned]), standings, added);
  if (budget.warning) result.record.warnings.push(budget.warning);
  const trimmed = applyDelta(lifecycle.playbook, { ops: budget.ops.filter((op) => veto(op) === undefined), tags: [] });
  lifecycle.playbook = trimmed.playbook;
  lifecycle.applied.push(...trimmed.applied);
  if (lifecycle.applied.length === 0) return;
  result.playbook = lifecycle.playbook;
  result.applied.push(...lifecycle.applied);
  const ok = lifecycle.applied.filter((a) => a.status === 'applied');
  pushApplyNode(
    result,
    'lifecycle',
    `${ok.length} change(s) the rules' standing and the budget ask for`,
    lifecycle.applied,
  );
}

/** A rule's origin when an agent's memory proposed it. */
function memorySource(verdict: MemoryVerdict): NonNullable<Proposal['rules'][number]['source']> {
  const { agent, file, line } = verdict.item;
  return { kind: 'agent-memory', agent: agentName(agent), file, line };
}

/** Who wrote a rule an agent's memory proposed: that agent's memory (no model of this run, no prompt). */
function memoryAuthor(verdict: MemoryVerdict): RuleAuthor {
  return cleanAuthor({ provider: 'agent-memory', model: verdict.item.agent, promptVersion: 'none' });
}

/** What the team wrote itself in the agents' root files: everything outside Combee's block. */
function teamTexts(workspace: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const path of ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md']) {
    const text = readWorkspaceFile(workspace, path);
    if (text === undefined) continue;
    try {
      const block = findManagedBlock(text, path);
      out.push({ path, text: block ? text.slice(0, block.start) + text.slice(block.end) : text });
    } catch {
      out.push({ path, text }); // damaged markers: the renderer reports them; all of it is the team's here
    }
  }
  return out;
}

export interface LearnWorkspaceResult {
  /** Sessions considered (new for this workspace). */
  traces: Trace[];
  /** Sessions of this run whose learning failed (not marked learned: the next run tries them again). */
  failedTraces?: Array<{ id: string; reason: string }>;
  /** Unlearned sessions of this workspace left out because they are older than the window. */
  outsideWindow: number;
  /** Sessions left out because their learning failed MAX_LEARNING_FAILURES times, with the last reason. */
  givenUp: Array<{ id: string; reason: string; count: number }>;
  /** The user declined the estimate: nothing ran. */
  declined?: boolean;
  /** `mapOnly`: the reflections made. */
  reflections?: ReflectionSet;
  proposal?: Proposal;
  record?: RunRecord;
  invalidStoredTraces: number;
}

/** Selects this workspace's unlearned sessions, learns from them and turns the new playbook into a proposal. */
export async function learnWorkspace(options: LearnWorkspaceOptions): Promise<LearnWorkspaceResult> {
  const playbookPath = workspaceRelative(options.playbookPath ?? DEFAULT_PLAYBOOK_PATH, options.workspace);
  // A dry run only reads the store: a workspace known only from its sessions (a team's, not on this machine) has no
  // files here to read or to confine paths in; its playbook is empty.
  const absent = options.dryRun === true && !existsSync(options.workspace);
  // Refused before any work: a path from settings or flags that leaves the workspace (OutsideWorkspaceError).
  const target = absent ? undefined : resolveInWorkspace(options.workspace, playbookPath);
  if (!absent) for (const root of options.assets?.skillRoots ?? []) resolveInWorkspace(options.workspace, root);
  let invalidStoredTraces = 0;
  const state = new WorkspaceState(options.store.dir);
  // selected from the summaries in the pack index: only the sessions this run learns are read and parsed
  const all = await options.store.listSummaries(() => invalidStoredTraces++);
  const learned = await state.loadLearned(options.workspace);
  const inWorkspace = createWorkspaceMatcher([options.workspace]);
  const sinceTime = options.since === undefined ? undefined : Date.parse(options.since);
  const mine = (options.allWorkspaces ? all : all.filter((t) => inWorkspace(t.cwd))).filter(
    (t) =>
      (!options.agents || options.agents.includes(t.agent)) &&
      (sinceTime === undefined || Date.parse(t.endedAt ?? t.startedAt ?? '') >= sinceTime),
  );
  const timeOf = (t: TraceSummary) => Date.parse(t.endedAt ?? t.startedAt ?? '');
  // a reduce, not Math.max(...): a store of a hundred thousand sessions would overflow the argument list
  const newest = (sessions: readonly TraceSummary[]) =>
    sessions.reduce((latest, t) => {
      const when = timeOf(t);
      return Number.isFinite(when) && when > latest ? when : latest;
    }, -Infinity);
  // anchored to this machine's sessions: a teammate's bundle session dated in the future moves no window
  const local = newest(mine.filter((t) => t.contributor === undefined));
  const anchor = options.now?.getTime() ?? (Number.isFinite(local) ? local : newest(mine));
  const since = windowStart(anchor, options.windowDays);
  const givenUp: LearnWorkspaceResult['givenUp'] = [];
  let outsideWindow = 0;
  const chosen = mine.filter((t) => {
    const status = learningStatus(learned, t.id);
    if (status.kind === 'learned') return false;
    if (status.kind === 'given up') {
      givenUp.push({ id: t.id, reason: status.reason, count: status.count });
      return false;
    }
    if (since !== undefined && timeOf(t) < since) {
      outsideWindow++;
      return false;
    }
    return true;
  });
  const traces = await options.store.loadTraces(
    chosen.map((t) => t.id),
    () => invalidStoredTraces++,
  );
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
  // each session counted once per rule it had in play (see learn/ruleCounting.ts)
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
    playbook: base,
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
  result.record.warnings.unshift(...early);
  const drops = describeDrops(dropSummary(result.record.nodes));
  if (drops) result.record.warnings.push(drops);
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

  // The agents' memories that this workspace's sessions bear out, as rules of this proposal; the rest reported
  let fromMemory = new Map<string, MemoryVerdict>();
  let memoryTraces: Trace[] = [];
  if (options.agentMemories && result.record.status === 'completed') {
    const report = await agentMemoryReport({
      store: options.store,
      workspace: options.workspace,
      settings: options.agentMemories,
      playbook: result.playbook,
      allWorkspaces: options.allWorkspaces,
    });
    memoryTraces = report.traces;
    fromMemory = proposeMemories(result, report, veto);
  }

  // What the rules' standing asks for after this run (retire the harmful and the stale, reword the broken ones)
  // this machine's own counting, this run's with it: what confirms the counters the playbook lines claim
  const records = [...(await loadRunRecords(state, options.workspace)), result.record];
  const counted = localCounts(
    ruleLedger,
    records,
    result.record.batches.flatMap((b) => b.evidence ?? []),
  );
  // the operations so far are the model's; what upkeep adds after them is Combee's own. Their marks go in now, so
  // the playbook's budget counts them.
  const byModel = result.applied.length;
  const author = runAuthor(options.provider);
  // a rule an agent's memory proposed was written by that agent, not by this run's model
  const memoryAuthors = new Map([...fromMemory].map(([id, verdict]) => [id, memoryAuthor(verdict)]));
  const changes = modelChanges(result.applied, author);
  for (const [id, by] of memoryAuthors) {
    const change = changes.get(id);
    if (change) changes.set(id, { ...change, author: by });
  }
  result.playbook = withAuthorMarks(result.playbook, changes);
  if (result.record.status === 'completed')
    await proposeUpkeep(
      records,
      counted,
      result,
      veto,
      options.assets?.playbookBudgetTokens ?? DEFAULT_PLAYBOOK_BUDGET_TOKENS,
      options.assets?.staleAfterRuns ?? STALE_AFTER_RUNS,
    );

  // No contradiction leaves the proposal: the better-evidenced side of each wins (see resolveConflicts.ts)
  const team = teamTexts(options.workspace);
  const overruledBy = new Map<string, string>();
  if (result.record.status === 'completed') {
    const conflicts = resolveConflicts(result, team, counted);
    for (const w of conflicts.withdrawn) result.record.warnings.push(`rule ${w.id} left out: ${w.reason}`);
    for (const r of conflicts.removed) overruledBy.set(r.id, r.by);
  }

  // Every rule change is screened before it is proposed; flagged ones stay in the playbook diff only, marked.
  const { rules, hold, warnings } = screenProposal({
    applied: result.applied,
    playbook: result.playbook,
    // a memory's rule is screened against the sessions that bear it out
    traces:
      memoryTraces.length > 0 ? [...traces, ...memoryTraces.filter((t) => !traces.some((r) => r.id === t.id))] : traces,
    playbookPath,
    // a pull request's store comes from a cache others can write: a rule accepted by name there proves nothing
    isTrusted: options.teamReview ? undefined : ReviewMemory.trusts(remembered),
    before: base,
    overruledBy,
    teamReview: options.teamReview,
    unverified: precomputed?.unverified,
  });
  result.record.warnings.push(...warnings);
  // rules sessions kept breaking: an enforcement beside them, its marks in the playbook (enforce/escalate.ts)
  const enforcement =
    result.record.status === 'completed'
      ? await proposeEnforcement({
          playbook: result.playbook,
          records: records.filter((r) => r !== result.record),
          run: result.record,
          traces,
          store: options.store,
          held: hold.ids,
          earlier: () => options.proposals.list(options.workspace),
          readFile: (rel) => readWorkspaceFile(options.workspace, rel),
        })
      : { playbook: result.playbook, enforcements: [] };
  result.playbook = enforcement.playbook;
  // how many people's and sessions' evidence stands behind each rule (its provenance mark in the playbook)
  const contributors = new Map(all.map((t) => [t.id, t.contributor]));
  const corroborated = withAuthors(rules, result.applied, byModel, author).map((r) => ({
    ...r,
    ...(memoryAuthors.has(r.id) ? { author: memoryAuthors.get(r.id) } : {}),
    corroboration: corroborationOf(r.support, (id) => contributors.get(id)),
  }));
  // without a setting, the targets follow the agents whose sessions the workspace has
  const targets = runTargets(
    options.assets?.targets,
    options.allWorkspaces ? all : all.filter((t) => inWorkspace(t.cwd)),
    (rel) => readWorkspaceFile(options.workspace, rel),
  );
  const notes = lintRules(
    rules,
    result.playbook,
    options.assets?.playbookBudgetTokens ?? DEFAULT_PLAYBOOK_BUDGET_TOKENS,
    team,
  );
  const appliedOps = result.applied
    .filter((a) => a.status === 'applied' && a.id)
    .map((a) => ({ ruleId: a.id as string, op: a.op }));
  // a rule back after a rejection or retirement says so first (decided on other sessions than these)
  for (const [id, note] of decisionNotes(appliedOps, ReviewMemory.judge(remembered)))
    notes.set(id, [note, ...(notes.get(id) ?? [])]);
  // a rule reworded beside its enforcement says so where it is reviewed
  for (const e of enforcement.enforcements) notes.set(e.ruleId, [...(notes.get(e.ruleId) ?? []), e.explanation]);
  for (const [id, verdict] of fromMemory) notes.set(id, [memoryNote(verdict), ...(notes.get(id) ?? [])]);
  // A run that changed nothing proposes nothing (not even a new, empty playbook file).
  const changed = serializePlaybook(result.playbook) !== serializePlaybook(base);
  // Held existing rules are rendered out of the other assets even by a run that learned nothing new.
  const files: FileChange[] =
    changed || hold.existing.length > 0
      ? renderAssets({
          workspace: options.workspace,
          playbook: result.playbook,
          rules: corroborated,
          lessons: lessonsFromRecord(result.record),
          readFile: (rel) => readWorkspaceFile(options.workspace, rel),
          listDir: (rel) => listWorkspaceFolders(options.workspace, rel),
          settings: { ...options.assets, targets: targets.targets, playbookPath },
          warn: (message) => result.record.warnings.push(message),
          local: counted,
          hold: {
            ids: hold.ids,
            marks: hold.flagged,
            others: playbookForOtherAssets(
              base,
              appliedOps,
              { tags: result.tags, counts: result.counts },
              hold.flagged,
            ),
          },
        })
      : [];
  const proposal: Proposal | undefined =
    files.length === 0
      ? undefined
      : {
          version: PROPOSAL_VERSION,
          id: result.record.id,
          createdAt: result.record.endedAt,
          workspace: options.workspace,
          runId: result.record.id,
          provider: result.record.provider,
          model: result.record.model,
          costUsd: result.record.totals.costUsd,
          status: 'pending',
          files,
          rules: corroborated.map(({ scope: _scope, kind: _kind, ...rule }) =>
            redactDeep(
              {
                ...rule,
                ...(notes.has(rule.id) ? { notes: notes.get(rule.id) } : {}),
                ...(fromMemory.has(rule.id) ? { source: memorySource(fromMemory.get(rule.id) as MemoryVerdict) } : {}),
              },
              redactText,
            ),
          ),
          ops: appliedOps,
          tags: result.tags,
          counts: result.counts,
          heldRules: hold.existing,
          ...(enforcement.enforcements.length > 0 ? { enforcements: enforcement.enforcements } : {}),
          targets: targets.targets,
          assets: keptAssets({ ...options.assets, targets: targets.targets, playbookPath }),
          targetReasons: targets.reasons,
          reviewed: { files: [], rules: [] },
        };
  if (!options.dryRun) {
    // the record is read by the webview and the CLI: its warnings may quote an endpoint's error text
    await saveRunRecord(state, options.workspace, redactDeep(result.record, redactText));
    if (proposal) await options.proposals.save(proposal);
    if (proposal && carried.from.length > 0) {
      const said: string[] = [];
      await giveUpCounters(
        options.store,
        options.proposals,
        carried,
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
  return {
    traces,
    givenUp,
    outsideWindow,
    failedTraces: result.failedTraces,
    proposal,
    record: result.record,
    invalidStoredTraces,
  };
}
