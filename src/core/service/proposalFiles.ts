import type { RuleAuthor } from '../playbook/authorMark';
import type { Corroboration } from '../playbook/provenanceMark';
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { tryResolveInWorkspace } from '../trust/workspacePath';
import { lessonsBehind, type RuleWithScope } from '../assets/agentsMd';
import type { FileChange, Proposal } from '../assets/proposal';
import { lessonsFromRecord } from '../assets/skills';
import { renderAssets, type AssetSettings } from '../assets/targets';
import { loadRunRecords } from '../store/runs';
import type { Lesson } from '../learn/types';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { Delta, DeltaOp, RuleCount } from '../playbook/delta';
import { emptyPlaybook, parsePlaybook } from '../playbook/markdown';
import { markWarning } from '../playbook/marks';
import { findBullet } from '../playbook/model';
import type { TraceStore } from '../store/traceStore';
import { ReviewMemory } from '../store/reviewMemory';
import type { RuleFlag } from '../trust/kinds';
import { holdBack, markedIds, opsWithIds, playbookForOtherAssets, withoutMarks, type HeldRule } from '../trust/hold';
import { WorkspaceState } from '../store/workspaceState';
import type { LocalCounts } from '../learn/rules/confirmedCounters';
import { localRuleCounts } from './localRuleCounts';
import { withEnforcedMark } from '../assets/enforce/mark';

/** An enforcement mark a proposal offers, for the rule it names. */
export interface EnforcedMark {
  ruleId: string;
  mark: string;
}

/** Renderers read the workspace synchronously (a handful of small files); a folder or a missing file is undefined. */
export function readWorkspaceFile(workspace: string, rel: string): string | undefined {
  // A path leaving the workspace reads as absent; writing it is refused where files are written.
  const path = tryResolveInWorkspace(workspace, rel);
  if (path === undefined) return undefined;
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** The names in a workspace-relative folder that `keep` takes; [] when absent or leaving the workspace. */
function workspaceEntries(workspace: string, rel: string, keep: (entry: Dirent) => boolean): string[] {
  const path = tryResolveInWorkspace(workspace, rel);
  if (path === undefined) return [];
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter(keep)
      .map((e) => e.name);
  } catch {
    return [];
  }
}

export function listWorkspaceFolders(workspace: string, rel: string): string[] {
  return workspaceEntries(workspace, rel, (e) => e.isDirectory());
}

/** The names of the files (not folders) in a workspace-relative folder; [] when absent or leaving the workspace. */
export function listWorkspaceFiles(workspace: string, rel: string): string[] {
  return workspaceEntries(workspace, rel, (e) => e.isFile());
}

/** The rule changes a proposal lists: every applied op, by the id it produced, with scope and kind for the renderers. */
export function rulesFromApplied(applied: AppliedOp[]): RuleWithScope[] {
  return applied
    .filter((a) => a.status === 'applied' && a.id)
    .map((a) => ({
      id: a.id as string,
      op: a.op.op,
      section: a.op.op === 'ADD' ? a.op.section : undefined,
      content: 'content' in a.op ? a.op.content : undefined,
      support: a.op.support,
      scope: a.op.op === 'ADD' ? a.op.scope : undefined,
      kind: a.op.op === 'ADD' ? a.op.kind : undefined,
      flags: [],
    }));
}

export interface OpsRender {
  files: FileChange[];
  /** The rules as applied now (ids can differ from the original proposal's when other rules came first). */
  rules: RuleWithScope[];
  ops: Array<{ ruleId: string; op: DeltaOp }>;
  /** Rules already in the playbook held back from the other assets (flagged text, or marked). */
  held: HeldRule[];
  /** Additions not made, by the id they were proposed with: the playbook holds the same rule already. */
  duplicates: Array<{ ruleId: string; reason: string }>;
}

/** How flagged rules are treated when operations are rendered again (see trust/hold.ts). */
export interface RenderTrust {
  /** Flags of the proposal's rules, by rule id. */
  flags: ReadonlyMap<string, readonly RuleFlag[]>;
  /** Rules accepted by name in this render: their flags and marks are dropped, they go into every asset. */
  accepted: ReadonlySet<string>;
  /** Rule text accepted by name before. */
  isTrusted?: (content: string) => boolean;
  /** Rule text turned down by name before: held, no longer waiting (see trust/hold.ts). */
  isRejected?: (content: string) => boolean;
  /** Mark the flagged rules in the playbook diff (a proposal to review; never for files being written). */
  mark: boolean;
  /** This machine's counts: the playbook's counters rank rules only as far as they confirm them (none without). */
  local?: LocalCounts;
}

const NO_TRUST: RenderTrust = { flags: new Map(), accepted: new Set(), mark: false };

/** Applies operations to the workspace's playbook as it is now and renders every enabled asset from the result. */
export function renderOps(
  workspace: string,
  ops: DeltaOp[],
  /** Counters, and the enforcement marks a proposal offers (they go with its playbook file, like the counters). */
  counters: Pick<Delta, 'tags' | 'counts'> & { enforced?: readonly EnforcedMark[] },
  lessons: Lesson[],
  assets: Partial<AssetSettings> & { playbookPath: string },
  warn: (m: string) => void,
  trust: RenderTrust = NO_TRUST,
  /** The people and sessions behind each rule, as the proposal says (its provenance mark). */
  corroboration?: ReadonlyMap<string, Corroboration | undefined>,
  /** Who wrote each rule change, as the proposal says (its model mark). */
  authors?: ReadonlyMap<string, RuleAuthor | undefined>,
): OpsRender {
  const current = readWorkspaceFile(workspace, assets.playbookPath);
  const stored = current === undefined ? emptyPlaybook() : parsePlaybook(current);
  const markProblems = markWarning(stored, assets.playbookPath);
  if (markProblems) warn(markProblems);
  // A rule accepted by name loses the mark a written proposal may have left above it.
  const unmarks = [...markedIds(stored)].some((id) => trust.accepted.has(id));
  // An existing rule accepted by name (one the screen held back) now goes into the other assets.
  const takesExisting = [...trust.accepted].some((id) => findBullet(stored, id) !== undefined);
  const base = withoutMarks(stored, trust.accepted);
  const result = applyDelta(base, { tags: counters.tags, counts: counters.counts, ops });
  const enforced = (counters.enforced ?? []).filter((e) => findBullet(result.playbook, e.ruleId));
  for (const e of enforced) result.playbook = withEnforcedMark(result.playbook, e.ruleId, e.mark);
  const applied = result.applied.filter((a) => a.status === 'applied' && a.id);
  const rules = rulesFromApplied(result.applied).map((r) => ({
    ...r,
    flags: trust.accepted.has(r.id) ? [] : [...(trust.flags.get(r.id) ?? [])],
    ...(corroboration?.get(r.id) ? { corroboration: corroboration.get(r.id) } : {}),
    ...(authors?.get(r.id) ? { author: authors.get(r.id) } : {}),
  }));
  const hold = holdBack({
    playbook: result.playbook,
    rules,
    accepted: trust.accepted,
    isTrusted: trust.isTrusted,
    isRejected: trust.isRejected,
  });
  const duplicates = result.applied.flatMap((a) =>
    a.status === 'skipped' && a.op.op === 'ADD' && a.op.id
      ? [{ ruleId: a.op.id, reason: a.reason ?? 'a duplicate' }]
      : [],
  );
  const countersMove = counters.tags.length > 0 || (counters.counts ?? []).length > 0 || enforced.length > 0;
  if (applied.length === 0 && !countersMove && !unmarks && !takesExisting)
    return { files: [], rules, ops: [], held: hold.existing, duplicates };
  const files = renderAssets({
    workspace,
    playbook: result.playbook,
    rules,
    lessons,
    readFile: (rel) => readWorkspaceFile(workspace, rel),
    listDir: (rel) => listWorkspaceFolders(workspace, rel),
    settings: assets,
    warn,
    ...(trust.local ? { local: trust.local } : {}),
    hold: {
      ids: hold.ids,
      marks: trust.mark ? hold.flagged : undefined,
      others: playbookForOtherAssets(
        base,
        opsWithIds(applied.map((a) => ({ ...a.op, ...(a.op.op === 'ADD' ? { id: a.id } : {}) }) as DeltaOp)),
        counters,
        hold.flagged,
      ),
    },
  });
  return {
    files,
    rules,
    ops: applied.map((a) => ({ ruleId: a.id as string, op: a.op })),
    held: hold.existing,
    duplicates,
  };
}

/** This machine's counts with a proposal's own increments added. */
function withCounts(local: LocalCounts, counts: readonly RuleCount[] = []): LocalCounts {
  const by = new Map(counts.map((c) => [c.id, c]));
  return (id) => {
    const mine = local(id);
    return { helpful: mine.helpful + (by.get(id)?.helpful ?? 0), harmful: mine.harmful + (by.get(id)?.harmful ?? 0) };
  };
}

/** The lessons of the proposal's run, and of the earlier runs its carried rules came from. */
export async function proposalLessons(store: TraceStore, proposal: Proposal): Promise<Lesson[]> {
  const records = await loadRunRecords(new WorkspaceState(store.dir), proposal.workspace);
  return [proposal.runId, ...(proposal.lessonsFrom ?? [])].flatMap((id) => {
    const record = records.find((r) => r.id === id);
    return record ? lessonsFromRecord(record) : [];
  });
}

/**
 * Splits a proposal: the chosen rules rendered against the workspace as it is now (to write), and a function that
 * re-renders what remains once those are written (so the rest never conflicts with the part accepted first).
 * Chosen rules are named, so a flagged one among them is accepted; the rest keep their flags and marks.
 * The run's counters (every session's word on the rules it had in play) go with the chosen part: whichever rules are
 * accepted first, the playbook file written holds them all. `remaining` is told which of the chosen files were
 * written; once the playbook was, the rest carries no counters (they are in the file, and count once).
 */
export async function chooseRules(
  store: TraceStore,
  proposal: Proposal,
  ruleIds: string[],
  assets: Partial<AssetSettings> & { playbookPath: string },
  warn: (m: string) => void,
  /** Turned down, the chosen rules are taken by no one: a held rule among them stays held in what remains. */
  rejected = false,
): Promise<{ chosen: OpsRender; remaining: (written?: readonly string[]) => Proposal }> {
  const lessons = await proposalLessons(store, proposal);
  const taken = new Set(rejected ? [] : ruleIds);
  const remembered = await new ReviewMemory(new WorkspaceState(store.dir), proposal.workspace).load();
  const isTrusted = ReviewMemory.trusts(remembered);
  const isRejected = ReviewMemory.rejects(remembered);
  const flags = new Map(proposal.rules.map((r) => [r.id, r.flags ?? []] as const));
  // ADDs keep the ids they were proposed with, so the rest of the proposal reads the same after a partial accept.
  const withId = (o: Proposal['ops'][number]): DeltaOp => (o.op.op === 'ADD' ? { ...o.op, id: o.ruleId } : o.op);
  const picked = proposal.ops.filter((o) => ruleIds.includes(o.ruleId)).map(withId);
  const rest = proposal.ops.filter((o) => !ruleIds.includes(o.ruleId)).map(withId);
  // The accepted part is rendered from the lessons behind its own rules: no Skill comes from a rule left out.
  const chosenRules = proposal.rules.filter((r) => ruleIds.includes(r.id));
  const corroboration = new Map(proposal.rules.map((r) => [r.id, r.corroboration] as const));
  const authors = new Map(proposal.rules.map((r) => [r.id, r.author] as const));
  // once its playbook file was written (Accept File, or an accept whose other files conflicted) they are in it
  const playbookPending = proposal.files.some((f) => f.path === assets.playbookPath);
  const enforced = (proposal.enforcements ?? []).flatMap((e) => (e.mark ? [{ ruleId: e.ruleId, mark: e.mark }] : []));
  const counters = playbookPending
    ? { tags: proposal.tags, counts: proposal.counts, enforced }
    : { tags: [], counts: [] };
  // the counters this proposal writes were counted by its run here (a dry run's are in no ledger): they confirm
  const local = withCounts(await localRuleCounts(new WorkspaceState(store.dir), proposal.workspace), counters.counts);
  const chosen = renderOps(
    proposal.workspace,
    picked,
    counters,
    lessonsBehind(chosenRules, lessons),
    assets,
    warn,
    {
      flags,
      accepted: taken,
      isTrusted,
      isRejected,
      mark: false,
      local,
    },
    corroboration,
    authors,
  );
  return {
    chosen,
    remaining: (written = []) => {
      // The chosen rules are the user's now (written, and trusted once the caller remembers them): not held back here.
      const countersWritten = written.includes(assets.playbookPath);
      const left = countersWritten ? { tags: [], counts: [] } : counters;
      const again = renderOps(
        proposal.workspace,
        rest,
        left,
        lessons,
        assets,
        warn,
        {
          flags,
          accepted: taken,
          isTrusted,
          isRejected,
          mark: true,
          local,
        },
        corroboration,
        authors,
      );
      return {
        ...proposal,
        tags: left.tags,
        counts: left.counts,
        // written with the playbook file, or still to write with it
        enforcements: countersWritten ? undefined : proposal.enforcements,
        files: again.files,
        // what the review was told of a rule (its notes, where it came from) stays with it after a decision
        rules: again.rules.map(({ scope: _s, kind: _k, ...r }) => {
          const was = proposal.rules.find((p) => p.id === r.id);
          return {
            ...r,
            flags: r.flags ?? [],
            ...(was?.notes ? { notes: was.notes } : {}),
            ...(was?.source ? { source: was.source } : {}),
          };
        }),
        ops: again.ops,
        // a held rule decided by name stays decided
        heldRules: [
          ...again.held,
          // a held rule whose retirement still waits is out of the playbook rendered here, and held all the same
          ...proposal.heldRules.filter(
            (h) => !again.held.some((a) => a.id === h.id) && rest.some((o) => o.op === 'REMOVE' && o.id === h.id),
          ),
        ].filter((h) => !proposal.reviewed.rules.some((r) => r.id === h.id)),
        status: again.files.length === 0 ? 'accepted' : 'partial',
      };
    },
  };
}
