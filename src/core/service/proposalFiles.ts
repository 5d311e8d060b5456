import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tryResolveInWorkspace } from '../trust/workspacePath';
import type { RuleWithScope } from '../assets/agentsMd';
import type { FileChange, Proposal } from '../assets/proposal';
import { lessonsFromRecord } from '../assets/skills';
import { renderAssets, type AssetSettings } from '../assets/targets';
import { loadRunRecords } from '../learn/runStore';
import type { Lesson } from '../learn/types';
import { applyDelta, type AppliedOp } from '../playbook/apply';
import type { BulletTag, DeltaOp } from '../playbook/delta';
import { emptyPlaybook, parsePlaybook } from '../playbook/markdown';
import type { TraceStore } from '../trace/store';

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

export function listWorkspaceFolders(workspace: string, rel: string): string[] {
  const path = tryResolveInWorkspace(workspace, rel);
  if (path === undefined) return [];
  try {
    return readdirSync(path, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
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
    }));
}

export interface OpsRender {
  files: FileChange[];
  /** The rules as applied now (ids can differ from the original proposal's when other rules came first). */
  rules: RuleWithScope[];
  ops: Array<{ ruleId: string; op: DeltaOp }>;
}

/** Applies operations to the workspace's playbook as it is now and renders every enabled asset from the result. */
export function renderOps(workspace: string, ops: DeltaOp[], tags: BulletTag[], lessons: Lesson[], assets: Partial<AssetSettings> & { playbookPath: string }, warn: (m: string) => void): OpsRender {
  const current = readWorkspaceFile(workspace, assets.playbookPath);
  const base = current === undefined ? emptyPlaybook() : parsePlaybook(current);
  const result = applyDelta(base, { ops, tags });
  const applied = result.applied.filter((a) => a.status === 'applied' && a.id);
  const rules = rulesFromApplied(result.applied);
  if (applied.length === 0 && tags.length === 0) return { files: [], rules, ops: [] };
  const files = renderAssets({
    workspace,
    playbook: result.playbook,
    rules,
    lessons,
    readFile: (rel) => readWorkspaceFile(workspace, rel),
    listDir: (rel) => listWorkspaceFolders(workspace, rel),
    settings: assets,
    warn,
  });
  return { files, rules, ops: applied.map((a) => ({ ruleId: a.id as string, op: a.op })) };
}

export async function proposalLessons(store: TraceStore, proposal: Proposal): Promise<Lesson[]> {
  const record = (await loadRunRecords(store, proposal.workspace)).find((r) => r.id === proposal.runId);
  return record ? lessonsFromRecord(record) : [];
}

/**
 * Splits a proposal: the chosen rules rendered against the workspace as it is now (to write), and a function that
 * re-renders what remains once those are written (so the rest never conflicts with the part accepted first).
 */
export async function chooseRules(store: TraceStore, proposal: Proposal, ruleIds: string[], assets: Partial<AssetSettings> & { playbookPath: string }, warn: (m: string) => void): Promise<{ chosen: OpsRender; remaining: () => Proposal }> {
  const lessons = await proposalLessons(store, proposal);
  // ADDs keep the ids they were proposed with, so the rest of the proposal reads the same after a partial accept.
  const withId = (o: Proposal['ops'][number]): DeltaOp => (o.op.op === 'ADD' ? { ...o.op, id: o.ruleId } : o.op);
  const picked = proposal.ops.filter((o) => ruleIds.includes(o.ruleId)).map(withId);
  const rest = proposal.ops.filter((o) => !ruleIds.includes(o.ruleId)).map(withId);
  const chosen = renderOps(proposal.workspace, picked, [], lessons, assets, warn);
  return {
    chosen,
    remaining: () => {
      const again = renderOps(proposal.workspace, rest, proposal.tags, lessons, assets, warn);
      return { ...proposal, files: again.files, rules: again.rules.map(({ scope: _s, kind: _k, ...r }) => r), ops: again.ops, status: again.files.length === 0 ? 'accepted' : 'partial' };
    },
  };
}
