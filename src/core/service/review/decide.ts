import { makeFileChange, type FileChange, type Proposal, type RuleChange } from '../../assets/proposal';
import type { DeltaOp } from '../../playbook/delta';
import { isOpen, pendingRules, proposalOrder, withDecisions } from '../../assets/review';
import type { AssetSettings } from '../../assets/targets';
import type { ProposalStore } from '../../store/proposals';
import { ReviewMemory } from '../../store/reviewMemory';
import type { TraceStore } from '../../store/traceStore';
import { WorkspaceState } from '../../store/workspaceState';
import { textsToTrust } from '../../trust/hold';
import { chooseRules, readWorkspaceFile } from '../proposalFiles';
import { rememberRetired } from '../ruleChanges/rememberRetired';
import { proposalAssets } from './assets';
import { rewrittenSince } from './rewrittenSince';
import { rebaseChange } from '../../assets/rebase';
import { readEditedRules, withOtherEdits } from './editedRules';
import { rulesInFile } from './ruleFiles';
import { emptyOutcome, type ReviewWriter, type WriteOutcome } from './writer';

// The one place review decisions are made. A file is decided through the rules it holds, so whatever the order of
// decisions, a rejected rule is never written, and an agent file only cites rules its playbook holds.

export type ReviewAction =
  | { kind: 'accept-all'; includeFlagged?: boolean }
  | { kind: 'accept-file'; path: string }
  /** By name: flagged rules and held existing ones (the screen kept them out of the other files) included. */
  | { kind: 'accept-rules'; ids: string[] }
  | { kind: 'reject-all' }
  | { kind: 'reject-file'; path: string }
  | { kind: 'reject-rules'; ids: string[] }
  /**
   * A file of the proposal as the user edited it (Edit Before Accepting): the rules it holds are accepted with the
   * text the user gave them, in every file; those taken out of it rejected. See `acceptEdited`.
   */
  | { kind: 'accept-edited'; path: string; text: string };

export interface ReviewDeps {
  /** The run's lessons and the review memory live there. */
  store: TraceStore;
  proposals: ProposalStore;
  writer: ReviewWriter;
  warn: (message: string) => void;
  /** Settings for a proposal made before it kept its own (the front end's). */
  fallbackAssets?: Partial<AssetSettings>;
}

type HeldRule = Proposal['heldRules'][number];

/** What a decision does, before anything is written: what a confirmation names. */
export interface ReviewPlan {
  action: ReviewAction;
  proposal: Proposal;
  /** Why nothing can be decided (decided already, nothing left, a file holding only flagged rules). */
  refused?: string;
  accepting: RuleChange[];
  acceptingHeld: HeldRule[];
  rejecting: RuleChange[];
  /** Held rules (in the playbook, flagged) turned down by name: they stay out of the other files, decided. */
  rejectingHeld: HeldRule[];
  /** Flagged rules an accept of everything leaves waiting for a decision by name. */
  leftOutFlagged: RuleChange[];
  /** What is written, all together or nothing. */
  files: FileChange[];
  /** Files decided themselves (they hold no pending rule, or the user edited them), with the decision. */
  filesDecided: Array<{ change: FileChange; decision: 'accepted' | 'rejected' }>;
  /** The proposal once the files are written, before the decisions are recorded. */
  next: () => Proposal;
}

export interface ReviewResult {
  plan: ReviewPlan;
  /** False when refused, or when a file could not be written (then nothing was). */
  decided: boolean;
  outcome: WriteOutcome;
  /** The proposal as saved (the one before when nothing was decided). */
  proposal: Proposal;
}

const isFlagged = (rule: RuleChange) => rule.flags.length > 0;

/** The names that are no rule of this proposal (pending, decided, or held back), for a usage error. */
export function unknownRuleNames(proposal: Proposal, ids: readonly string[]): string[] {
  return ids.filter(
    (id) =>
      !proposal.rules.some((r) => r.id === id) &&
      !proposal.heldRules.some((h) => h.id === id) &&
      !proposal.reviewed.rules.some((r) => r.id === id),
  );
}

/** Whether the proposal offers to retire this rule (a held rule of the playbook, see learnRun/retireHeld.ts). */
const retiring = (rules: readonly RuleChange[], id: string) => rules.some((r) => r.id === id && r.op === 'REMOVE');

/**
 * A held rule's retirement decides the held rule too: accepted, the rule is gone; rejected, the rule stays held and
 * is turned down by name (kept out, asked about no more). Either way it no longer waits as held.
 */
function withHeldRetirements(plan: ReviewPlan): ReviewPlan {
  const held = plan.proposal.heldRules;
  const rejected = held.filter((h) => retiring(plan.rejecting, h.id));
  const gone = new Set([...held.filter((h) => retiring(plan.accepting, h.id)), ...rejected].map((h) => h.id));
  if (gone.size === 0) return plan;
  return {
    ...plan,
    // recorded once, as the held rule turned down by name
    rejecting: plan.rejecting.filter((r) => !(r.op === 'REMOVE' && rejected.some((h) => h.id === r.id))),
    rejectingHeld: [...plan.rejectingHeld.filter((h) => !rejected.includes(h)), ...rejected],
    next: () => {
      const next = plan.next();
      return { ...next, heldRules: next.heldRules.filter((h) => !gone.has(h.id)) };
    },
  };
}

/** What the action would decide and write, rendered against the workspace as it is now. */
export async function planReview(deps: ReviewDeps, proposal: Proposal, action: ReviewAction): Promise<ReviewPlan> {
  const plan = await planDecision(deps, proposal, action);
  return plan.refused ? plan : withHeldRetirements(plan);
}

async function planDecision(deps: ReviewDeps, proposal: Proposal, action: ReviewAction): Promise<ReviewPlan> {
  const base: ReviewPlan = {
    action,
    proposal,
    accepting: [],
    acceptingHeld: [],
    rejecting: [],
    rejectingHeld: [],
    leftOutFlagged: [],
    files: [],
    filesDecided: [],
    next: () => proposal,
  };
  const refuse = (why: string): ReviewPlan => ({ ...base, refused: why });
  // a rule already in the playbook that the screen held back can be taken by name even once the rest is decided
  const takesHeldOnly =
    (action.kind === 'accept-rules' || action.kind === 'reject-rules') &&
    action.ids.every((id) => proposal.heldRules.some((h) => h.id === id));
  if (proposal.status === 'superseded')
    return refuse(
      `proposal ${proposal.id} was superseded by ${proposal.supersededBy ?? 'a newer one'} (a newer learning run holds its undecided rules, under the same ids): decide on that one`,
    );
  if (!isOpen(proposal) && !takesHeldOnly) return refuse(`proposal ${proposal.id} is ${proposal.status} already`);
  const pending = pendingRules(proposal);
  const assets = proposalAssets(proposal, deps.fallbackAssets);
  // only what waits is rendered again: a decided rule's operation is in the files already, or turned down
  const decidedIds = new Set(proposal.reviewed.rules.map((r) => r.id));
  const live: Proposal = { ...proposal, ops: proposal.ops.filter((o) => !decidedIds.has(o.ruleId)) };

  /** Accepting rules: their render against the files as they are now, the rest rendered again around them. */
  const accept = async (take: RuleChange[], held: HeldRule[]): Promise<ReviewPlan> => {
    // everything that waits, none flagged: the proposal's own files, as reviewed (re-based onto the team's edits), unless
    // Combee wrote to one since: that one's patch would add a second block or a rule twice, so all are rendered again
    if (
      take.length === pending.length &&
      held.length === 0 &&
      !pending.some(isFlagged) &&
      !proposal.files.some((f) => rewrittenSince(proposal.workspace, f, assets.playbookPath, pending))
    )
      return { ...base, accepting: take, files: proposal.files, next: () => ({ ...proposal, files: [] }) };
    const split = await chooseRules(
      deps.store,
      live,
      [...take.map((r) => r.id), ...held.map((h) => h.id)],
      assets,
      deps.warn,
    );
    if (split.chosen.files.length === 0 && take.length + held.length === 0)
      return refuse(`nothing to accept in proposal ${proposal.id} but flagged rules (accept them by name)`);
    // an addition the playbook holds already (the same text, under this id or another) is not written again
    for (const d of split.chosen.duplicates.filter((d) => take.some((r) => r.id === d.ruleId)))
      deps.warn(`rule ${d.ruleId} is in the playbook already (${d.reason}): not written again`);
    return {
      ...base,
      accepting: take,
      acceptingHeld: held,
      files: split.chosen.files,
      next: () => split.remaining(split.chosen.files.map((f) => f.path)),
    };
  };
  const reject = async (rules: RuleChange[]): Promise<ReviewPlan> => {
    const split = await chooseRules(
      deps.store,
      live,
      rules.map((r) => r.id),
      assets,
      deps.warn,
      true,
    );
    return { ...base, rejecting: rules, next: () => split.remaining() };
  };
  const alone = (change: FileChange, decision: 'accepted' | 'rejected'): ReviewPlan => ({
    ...base,
    files: decision === 'accepted' ? [change] : [],
    filesDecided: [{ change, decision }],
    next: () => ({
      ...proposal,
      files: proposal.files.filter((f) => f.path !== change.path),
      // the run's counters went with the playbook file
      ...(decision === 'accepted' && change.path === assets.playbookPath ? { tags: [], counts: [] } : {}),
    }),
  });
  const named = (ids: string[], held: boolean): string | undefined => {
    if (ids.length === 0) return 'no rule named';
    for (const id of ids) {
      const decided = proposal.reviewed.rules.find((r) => r.id === id);
      if (decided) return `rule ${id} of proposal ${proposal.id} is ${decided.decision} already`;
    }
    const missing = ids.filter(
      (id) => !pending.some((r) => r.id === id) && !(held && proposal.heldRules.some((h) => h.id === id)),
    );
    return missing.length > 0 ? `proposal ${proposal.id} has no pending rule ${missing.join(', ')}` : undefined;
  };

  switch (action.kind) {
    case 'accept-all': {
      const flagged = pending.filter(isFlagged);
      const plan = await accept(action.includeFlagged ? pending : pending.filter((r) => !isFlagged(r)), []);
      return action.includeFlagged ? plan : { ...plan, leftOutFlagged: flagged };
    }
    case 'accept-rules': {
      const problem = named(action.ids, true);
      if (problem) return refuse(problem);
      return accept(
        pending.filter((r) => action.ids.includes(r.id)),
        // a held rule whose retirement waits is named for that: accepting retires it, never trusts it
        proposal.heldRules.filter((h) => action.ids.includes(h.id) && !retiring(pending, h.id)),
      );
    }
    case 'accept-file': {
      const change = proposal.files.find((f) => f.path === action.path);
      if (!change) return refuse(`proposal ${proposal.id} has no pending file ${action.path}`);
      const cited = rulesInFile(change, pending);
      const take = cited.filter((r) => !isFlagged(r));
      if (take.length > 0) return accept(take, []);
      if (cited.length > 0)
        return refuse(
          `${change.path} holds only flagged rules (${cited.map((r) => r.id).join(', ')}): accept them by name`,
        );
      return alone(change, 'accepted');
    }
    case 'reject-all':
      return {
        ...base,
        rejecting: pending,
        filesDecided: proposal.files.map((change) => ({ change, decision: 'rejected' as const })),
        next: () => ({ ...proposal, files: [] }),
      };
    case 'reject-rules': {
      // a held rule is named as one of the proposal's too: turning it down must not fail unsaid
      const problem = named(action.ids, true);
      if (problem) return refuse(problem);
      const held = proposal.heldRules.filter((h) => action.ids.includes(h.id));
      const take = pending.filter((r) => action.ids.includes(r.id));
      // no file changes for a held rule: it is in the playbook already and out of the other files
      const plan = take.length > 0 ? await reject(take) : { ...base, next: () => proposal };
      const rest = (p: Proposal): Proposal => ({
        ...p,
        heldRules: p.heldRules.filter((h) => !held.some((d) => d.id === h.id)),
      });
      return { ...plan, rejectingHeld: held, next: () => rest(plan.next()) };
    }
    case 'reject-file': {
      const change = proposal.files.find((f) => f.path === action.path);
      if (!change) return refuse(`proposal ${proposal.id} has no pending file ${action.path}`);
      const cited = rulesInFile(change, pending);
      return cited.length > 0 ? reject(cited) : alone(change, 'rejected');
    }
    case 'accept-edited': {
      const change = proposal.files.find((f) => f.path === action.path);
      if (!change) return refuse(`proposal ${proposal.id} has no pending file ${action.path}`);
      return acceptEdited(deps, { ...base, accepting: [] }, live, change, action.text, assets);
    }
  }
}

/**
 * Edit Before Accepting: the rules the edited file holds are accepted with the text the user gave them (changed in
 * the proposal, then every file rendered again, so the playbook and each agent file say the same), those the user took
 * out rejected; the user's other changes to that file are laid onto it. Saving the edit is not the accept: this is.
 */
async function acceptEdited(
  deps: ReviewDeps,
  base: ReviewPlan,
  live: Proposal,
  change: FileChange,
  text: string,
  assets: ReturnType<typeof proposalAssets>,
): Promise<ReviewPlan> {
  const { proposal } = base;
  const current = readWorkspaceFile(proposal.workspace, change.path);
  // the draft started from the proposal re-based onto the file as it is now (the team's edits since in it)
  const rebased = rebaseChange(change, current);
  const proposed = rebased.kind === 'rebased' ? rebased.change.after : change.after;
  const read = readEditedRules(change.before, change.after, text, rulesInFile(change, pendingRules(proposal)));
  for (const id of read.unreadable)
    deps.warn(`the line of rule ${id} in ${change.path} changed beyond its text: it is accepted as proposed`);
  // a flagged rule is taken by name only (Accept Rule, after its flags are shown): kept in the edit, it waits
  const waiting = read.kept.filter(isFlagged);
  read.kept = read.kept.filter((r) => !isFlagged(r));
  const edited = new Map(read.kept.map((r) => [r.id, r.content] as const));
  // the rules as the user worded them, the ones taken out left out
  const rest: Proposal = {
    ...live,
    rules: live.rules.map((r) => (edited.has(r.id) ? { ...r, content: edited.get(r.id) } : r)),
    ops: live.ops
      .filter((o) => !read.dropped.some((r) => r.id === o.ruleId))
      .map((o) =>
        'content' in o.op && edited.get(o.ruleId) !== undefined
          ? { ...o, op: { ...o.op, content: edited.get(o.ruleId) } as DeltaOp }
          : o,
      ),
  };
  const split = await chooseRules(
    deps.store,
    rest,
    read.kept.map((r) => r.id),
    assets,
    deps.warn,
  );
  const chosen = read.kept.length > 0 ? split.chosen.files : [];
  const rendered = chosen.find((f) => f.path === change.path);
  const mine =
    withOtherEdits(proposed, text, rendered?.after ?? current ?? '', {
      kept: read.kept.map((r) => r.id),
      out: [...read.dropped, ...waiting].map((r) => r.id),
    }) ??
    (deps.warn(`your other edits of ${change.path} did not fit it rendered again: it is written as you left it`), text);
  // a file no rule is left in, and that the user changed nowhere else, is not written
  const own = rendered
    ? makeFileChange(change.path, rendered.kind === 'create' ? undefined : rendered.before, mine)
    : mine !== (current ?? '')
      ? makeFileChange(change.path, current, mine)
      : undefined;
  const files = [...chosen.filter((f) => f.path !== change.path), ...(own ? [own] : [])];
  return {
    ...base,
    accepting: read.kept,
    rejecting: read.dropped,
    files,
    filesDecided: [{ change: { ...change, after: mine }, decision: 'accepted' }],
    next: () => split.remaining(files.map((f) => f.path)),
  };
}

/** Open while a file waits; closed, it is accepted when anything of it was, else rejected. */
function settled(proposal: Proposal, action: ReviewAction): Proposal {
  const { rules, files } = proposal.reviewed;
  if (action.kind === 'reject-all') return { ...proposal, status: 'rejected' };
  if (proposal.files.length > 0)
    return { ...proposal, status: rules.length + files.length > 0 ? 'partial' : 'pending' };
  const any = [...rules, ...files].some((d) => d.decision === 'accepted');
  return { ...proposal, status: any ? 'accepted' : 'rejected' };
}

/** Writes the plan's files (all or none), then records its decisions and what review memory keeps of them. */
export async function commitReview(deps: ReviewDeps, plan: ReviewPlan): Promise<ReviewResult> {
  const before = plan.proposal;
  if (plan.refused) return { plan, decided: false, outcome: emptyOutcome(), proposal: before };
  const written = plan.files.length > 0 ? await deps.writer.write(plan.files) : emptyOutcome();
  if (written.conflicts.length > 0 || written.refused.length > 0)
    return { plan, decided: false, outcome: written, proposal: before };
  const outcome = written;
  let next = plan.next();
  const acceptedFiles = [
    ...plan.files,
    ...plan.filesDecided.filter((d) => d.decision === 'accepted').map((d) => d.change),
  ]
    // a file decided alone is also the file written: recorded once
    .filter((f, i, all) => all.findIndex((o) => o.path === f.path) === i)
    .map((f) => ({ path: f.path, kind: f.kind }));
  if (plan.accepting.length + plan.acceptingHeld.length + acceptedFiles.length > 0)
    next = withDecisions(next, 'accepted', {
      files: acceptedFiles,
      rules: plan.accepting,
      held: plan.acceptingHeld,
    });
  const rejectedFiles = plan.filesDecided
    .filter((d) => d.decision === 'rejected')
    .map((d) => ({ path: d.change.path, kind: d.change.kind }));
  if (plan.rejecting.length + plan.rejectingHeld.length + rejectedFiles.length > 0)
    next = withDecisions(next, 'rejected', { files: rejectedFiles, rules: plan.rejecting, held: plan.rejectingHeld });
  next = { ...settled(next, plan.action), order: proposalOrder(next, proposalOrder(before)) };
  await remember(deps, plan);
  await deps.proposals.save(next);
  return { plan, decided: true, outcome, proposal: next };
}

/** Plans and commits one decision. */
export async function decide(deps: ReviewDeps, proposal: Proposal, action: ReviewAction): Promise<ReviewResult> {
  return commitReview(deps, await planReview(deps, proposal, action));
}

/** Review memory: rejected rules are not proposed again, accepted ones are known (a later deletion is noticed). */
async function remember(deps: ReviewDeps, plan: ReviewPlan): Promise<void> {
  const { proposal } = plan;
  const state = new WorkspaceState(deps.store.dir);
  const memory = new ReviewMemory(state, proposal.workspace);
  if (plan.rejecting.length + plan.rejectingHeld.length > 0)
    await memory.rememberRejected([
      // a removal turned down keeps its rule: no text of it is turned down (a held one's is, as held, below)
      ...plan.rejecting.filter((r) => r.op !== 'REMOVE'),
      ...plan.rejectingHeld.map((h) => ({ ...h, support: [] })),
    ]);
  // taken by name: their risky-looking text is the user's now, not held back next time
  await memory.rememberTrusted([...plan.acceptingHeld.map((h) => h.content), ...textsToTrust(plan.accepting)]);
  const playbookPath = proposalAssets(proposal, deps.fallbackAssets).playbookPath;
  if (!plan.files.some((f) => f.path === playbookPath)) return;
  const text = readWorkspaceFile(proposal.workspace, playbookPath);
  if (text === undefined) return;
  await memory.rememberAccepted(text, new Map(plan.accepting.map((r) => [r.id, r.support.map((s) => s.traceId)])));
  // a removal accepted is a decision: the rule does not come back on the same evidence
  await rememberRetired(
    state,
    proposal,
    plan.accepting.map((r) => r.id),
    playbookPath,
    text,
  );
}
