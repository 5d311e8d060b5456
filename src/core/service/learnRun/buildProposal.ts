import { lessonsFromRecord } from '../../assets/skills';
import { contextCost } from '../../assets/contextCost';
import { renderAssets } from '../../assets/targets';
import { PROPOSAL_VERSION, type FileChange, type Proposal } from '../../assets/proposal';
import { DEFAULT_PLAYBOOK_BUDGET_TOKENS } from '../../learn/rules/budget';
import { localCounts } from '../../learn/rules/confirmedCounters';
import type { PrecomputedReflector } from '../../learn/reflectionSet';
import { STALE_AFTER_RUNS } from '../../learn/rules/ruleStanding';
import type { MemoryVerdict } from '../../memories/types';
import { withAuthorMarks } from '../../playbook/authorMark';
import type { DeltaOp } from '../../playbook/delta';
import { serializePlaybook } from '../../playbook/markdown';
import type { Playbook } from '../../playbook/model';
import { redactDeep } from '../../secrets/deep';
import { ReviewMemory } from '../../store/reviewMemory';
import type { RuleLedger } from '../../store/ruleLedger';
import { loadRunRecords } from '../../store/runs';
import type { WorkspaceState } from '../../store/workspaceState';
import { corroborationOf } from '../../team/corroboration';
import type { Trace } from '../../trace/model';
import { redactText } from '../../trace/redact';
import { playbookForOtherAssets } from '../../trust/hold';
import { listWorkspaceFiles, listWorkspaceFolders, readWorkspaceFile } from '../proposalFiles';
import { describeEnforced, enforcedInFiles, proposeEnforcement } from './proposeEnforcement';
import { keptAssets } from '../review/assets';
import { modelChanges, runAuthor, withAuthors } from './ruleAuthors';
import type { RunTargets } from './runTargets';
import { heldWarning, screenProposal } from './screenProposal';
import { gateNewRules, type GatedOutRule } from './gateRules';
import type { LearnResult, LearnWorkspaceOptions } from './options';
import type { SessionSelection } from './selectSessions';
import {
  carryRemovals,
  oneChangePerRule,
  restatedCarried,
  withdrawnInRun,
  type CarriedProposals,
} from './pendingProposal';
import { proposeHeldRetirements } from './retireHeld';
import { proposeUpkeep } from './upkeep';
import { ruleNotes } from './ruleNotes';
import { memoryAuthor, memoryRules, memorySource } from './memoryRules';
import { openTeamConflicts, settleTeamConflicts, teamTexts } from './teamText';

// After the learning: what else the run proposes (the agents' memories the sessions bear out, the rules' upkeep,
// enforcements), what is screened, resolved and noted, and the files rendered from the new playbook: the proposal.

export interface ProposalInput {
  options: LearnWorkspaceOptions;
  result: LearnResult;
  /** The playbook before the run, as the file holds it. */
  base: Playbook;
  /** The run's sessions, and the selection they came from. */
  traces: readonly Trace[];
  sessions: SessionSelection;
  playbookPath: string;
  state: WorkspaceState;
  ruleLedger: RuleLedger;
  /** The team's review decisions, and the veto drawn from them. */
  remembered: Awaited<ReturnType<ReviewMemory['load']>>;
  veto: (op: DeltaOp) => string | undefined;
  precomputed?: PrecomputedReflector;
  /** The targets rendered (see runTargets.ts). */
  targets: RunTargets;
  /** The open proposals this one takes the place of: their undecided rules are among `result.applied`, first. */
  carried?: CarriedProposals;
  /** Filled with the new rules the precision gates left out. */
  gatedOut: GatedOutRule[];
}

/** The run's proposal (undefined when it changes no file); `result`'s playbook and record take what it adds. */
export async function buildProposal(input: ProposalInput): Promise<Proposal | undefined> {
  const { options, result, base, traces, sessions, playbookPath, state, ruleLedger, remembered, veto, precomputed } =
    input;
  const carried = input.carried?.rules ?? new Map<string, Proposal['rules'][number]>();
  // the runs the carried rules were learned in: their lessons render with this run's (Skills, nested scopes)
  const lessonRuns = [...new Set((input.carried?.from ?? []).flatMap((p) => [p.runId, ...(p.lessonsFrom ?? [])]))];
  // The agents' memories that this workspace's sessions bear out, as rules of this proposal; the rest reported
  const { fromMemory, memoryTraces } = await memoryRules(options, result, veto);

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
  const { overruledBy, teamConflicts } = settleTeamConflicts(result, team, counted);
  if (input.carried) carryRemovals(result, input.carried);
  // Every new rule passes the precision gates, its support the union of the rules merged into it (learn/gates); a
  // carried rule passed them in the run that proposed it, on sessions this run may not hold. A run with failed
  // model calls still proposes what the others gave: it passes them too
  input.gatedOut.push(
    ...gateNewRules(
      result,
      traces,
      (rel) => readWorkspaceFile(options.workspace, rel),
      new Set(carried.keys()),
      (folder) => listWorkspaceFiles(options.workspace, folder),
      (folder) => listWorkspaceFolders(options.workspace, folder),
    ),
  );

  // a flagged rule of the playbook is offered for retirement, unless the user decided about it by name before
  const retiring = proposeHeldRetirements(result, {
    isTrusted: options.teamReview ? undefined : ReviewMemory.trusts(remembered),
    isRejected: ReviewMemory.rejects(remembered),
  });

  // a carried rule is screened against the sessions it was learned from (earlier runs'), as it was the first time
  const carriedIds = [...carried.values()].flatMap((r) => r.support.map((s) => s.traceId));
  const carriedTraces = await options.store.loadTraces(
    [...new Set(carriedIds)].filter((id) => !traces.some((t) => t.id === id)),
  );
  const others = [...memoryTraces, ...carriedTraces].filter(
    (t, i, all) => !traces.some((r) => r.id === t.id) && all.findIndex((o) => o.id === t.id) === i,
  );
  // Every rule change is screened before it is proposed; flagged ones stay in the playbook diff only, marked.
  const { rules, hold, warnings } = screenProposal({
    applied: result.applied,
    playbook: result.playbook,
    // a memory's rule is screened against the sessions that bear it out
    traces: others.length > 0 ? [...traces, ...others] : traces,
    playbookPath,
    // a pull request's store comes from a cache others can write: a rule accepted by name there proves nothing
    isTrusted: options.teamReview ? undefined : ReviewMemory.trusts(remembered),
    isRejected: ReviewMemory.rejects(remembered),
    before: base,
    overruledBy,
    teamReview: options.teamReview,
    unverified: precomputed?.unverified,
  });
  result.record.warnings.push(...warnings, ...retiring.map((h) => heldWarning(h, playbookPath)));
  // rules whose retirement this proposal offers are held as well: out of the other files whatever is decided
  hold.existing.push(...retiring);
  for (const h of retiring) hold.ids.add(h.id);
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
          // a proposal this one supersedes is no verdict: what it offered is offered again here, if still due
          earlier: async () =>
            (await options.proposals.list(options.workspace)).filter(
              (p) => !(input.carried?.from ?? []).some((c) => c.id === p.id),
            ),
          readFile: (rel) => readWorkspaceFile(options.workspace, rel),
          teamReview: options.teamReview,
        })
      : { playbook: result.playbook, enforcements: [] };
  result.playbook = enforcement.playbook;
  // a carried rule this run takes out again is proposed no more (an addition and its removal)
  const withdrawn = withdrawnInRun(
    result.applied.filter((a) => a.status === 'applied' && a.id).map((a) => ({ ruleId: a.id as string, op: a.op })),
  );
  // how many people's and sessions' evidence stands behind each rule (its provenance mark in the playbook)
  const contributors = new Map(sessions.all.map((t) => [t.id, t.contributor]));
  const restated = restatedCarried(
    input.carried ?? { from: [], rules: new Map(), ops: [] },
    lessonsFromRecord(result.record),
  );
  const corroborated = oneChangePerRule(withAuthors(rules, result.applied, byModel, author))
    .filter((r) => !withdrawn.has(r.id))
    .map((r) => withSupport(r, restated.get(r.id) ?? []))
    .map((r) => ({
      ...r,
      ...(memoryAuthors.has(r.id) ? { author: memoryAuthors.get(r.id) } : {}),
      // a carried rule was written by whoever proposed it first
      ...(carried.get(r.id)?.author ? { author: carried.get(r.id)?.author } : {}),
      corroboration: corroborationOf(r.support, (id) => contributors.get(id)),
    }));
  // without a setting, the targets follow the agents whose sessions the workspace has
  const { targets } = input;
  const appliedOps = result.applied
    .filter((a) => a.status === 'applied' && a.id)
    .map((a) => ({ ruleId: a.id as string, op: a.op }))
    .filter((o) => !withdrawn.has(o.ruleId));
  const notes = ruleNotes({
    rules,
    playbook: result.playbook,
    budgetTokens: options.assets?.playbookBudgetTokens ?? DEFAULT_PLAYBOOK_BUDGET_TOKENS,
    team,
    appliedOps,
    judge: ReviewMemory.judge(remembered),
    retiring,
    playbookPath,
    enforcements: enforcement.enforcements,
    fromMemory,
    carried,
  });
  // A run that changed nothing proposes nothing (not even a new, empty playbook file).
  const changed = serializePlaybook(result.playbook) !== serializePlaybook(base);
  // Held existing rules are rendered out of the other assets even by a run that learned nothing new.
  const files: FileChange[] =
    changed || hold.existing.length + hold.decided.length > 0
      ? renderAssets({
          workspace: options.workspace,
          playbook: result.playbook,
          rules: corroborated,
          lessons: [
            ...lessonsFromRecord(result.record),
            ...records.filter((r) => lessonRuns.includes(r.id)).flatMap(lessonsFromRecord),
          ],
          readFile: (rel) => readWorkspaceFile(options.workspace, rel),
          listDir: (rel) => listWorkspaceFolders(options.workspace, rel),
          settings: {
            ...options.assets,
            targets: targets.targets,
            skillRoots: targets.skillRoots,
            agents: targets.agents,
            playbookPath,
          },
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
  if (files.length === 0) return undefined;
  const retiringText = new Map(retiring.map((h) => [h.id, h.content]));
  const enforced = enforcedInFiles(result.playbook, hold.ids, files);
  for (const e of enforced)
    if (!enforcement.enforcements.some((o) => o.ruleId === e.ruleId && o.mark))
      result.record.warnings.push(
        `the hook files enforce rule ${e.ruleId} from its playbook mark: ${describeEnforced(e)}`,
      );
  return {
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
          // the text a retirement of a held rule takes out, as the review shows it
          ...(rule.op === 'REMOVE' && !rule.content && retiringText.has(rule.id)
            ? { content: retiringText.get(rule.id) }
            : {}),
          ...(notes.has(rule.id) ? { notes: notes.get(rule.id) } : {}),
          ...(fromMemory.has(rule.id)
            ? { source: memorySource(fromMemory.get(rule.id) as MemoryVerdict) }
            : carried.get(rule.id)?.source
              ? { source: carried.get(rule.id)?.source }
              : {}),
        },
        redactText,
      ),
    ),
    ops: appliedOps,
    tags: result.tags,
    counts: result.counts,
    heldRules: hold.existing,
    // a rule left out later (the gates, the screen) overrules nothing
    ...openTeamConflicts(
      teamConflicts.filter((c) => c.outcome === 'left-out' || corroborated.some((r) => r.id === c.ruleId)),
    ),
    ...(enforcement.enforcements.length > 0 ? { enforcements: enforcement.enforcements } : {}),
    ...(enforced.length > 0 ? { enforced } : {}),
    targets: targets.targets,
    assets: keptAssets({
      ...options.assets,
      targets: targets.targets,
      skillRoots: targets.skillRoots,
      agents: targets.agents,
      playbookPath,
    }),
    targetReasons: targets.reasons,
    // what Combee's text costs each agent of the workspace at session start, before and after
    ...(targets.agents.length > 0
      ? { contextCost: contextCost(targets.agents, (rel) => readWorkspaceFile(options.workspace, rel), files) }
      : {}),
    reviewed: { files: [], rules: [] },
    ...(input.carried && input.carried.from.length > 0 ? { supersedes: input.carried.from.map((p) => p.id) } : {}),
    ...(lessonRuns.length > 0 ? { lessonsFrom: lessonRuns } : {}),
  };
}

/** A rule with more sessions behind it, each session once. */
function withSupport<R extends { support: Array<{ traceId: string; steps: number[] }> }>(
  rule: R,
  more: ReadonlyArray<{ traceId: string; steps: number[] }>,
): R {
  const fresh = more.filter((e) => !rule.support.some((s) => s.traceId === e.traceId));
  return fresh.length === 0 ? rule : { ...rule, support: [...rule.support, ...fresh] };
}
