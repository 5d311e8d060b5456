import type { Proposal } from '../../assets/proposal';
import { ReviewMemory, type ReviewMemoryData } from '../../store/reviewMemory';
import { WorkspaceState } from '../../store/workspaceState';
import { commitReview, type ReviewDeps, type ReviewPlan, type ReviewResult } from './decide';
import type { WrittenFile } from './writer';

/** One decision as it can be walked back: the proposal and review memory before it, and what it wrote. */
export interface UndoEntry {
  /** What the decision was, for the message ("accept-rules bui-00002 of run-1"). */
  label: string;
  before: Proposal;
  memoryBefore: ReviewMemoryData;
  writes: WrittenFile[];
}

export type UndoOutcome =
  | { kind: 'nothing' }
  | { kind: 'undone'; entry: UndoEntry; reverted: string[] }
  /** A file the decision wrote changed since: nothing is walked back (the files and the decisions must agree). */
  | { kind: 'changed-since'; entry: UndoEntry; changedSince: string[] };

const labelOf = (plan: ReviewPlan) => {
  const a = plan.action;
  const what = 'ids' in a ? `${a.kind} ${a.ids.join(', ')}` : 'path' in a ? `${a.kind} ${a.path}` : a.kind;
  return `${what} of ${plan.proposal.id}`;
};

/**
 * The decisions of one workspace, newest last: each accept and reject (retiring and pinning are accepts of their
 * proposals) can be walked back in turn, files, proposal and review memory together.
 */
export class UndoStack {
  private readonly entries: UndoEntry[] = [];

  constructor(private readonly limit = 50) {}

  get size(): number {
    return this.entries.length;
  }

  /** The decision on top, if any (what Undo would walk back). */
  peek(): UndoEntry | undefined {
    return this.entries.at(-1);
  }

  /** Commits a planned decision and keeps what undoing it takes. */
  async commit(deps: ReviewDeps, plan: ReviewPlan): Promise<ReviewResult> {
    const memory = new ReviewMemory(new WorkspaceState(deps.store.dir), plan.proposal.workspace);
    const memoryBefore = await memory.load();
    const result = await commitReview(deps, plan);
    if (result.decided) {
      this.entries.push({ label: labelOf(plan), before: plan.proposal, memoryBefore, writes: result.outcome.writes });
      if (this.entries.length > this.limit) this.entries.shift();
    }
    return result;
  }

  /** Walks back the newest decision: its files as they were, the proposal and review memory as before it. */
  async undo(deps: Pick<ReviewDeps, 'store' | 'proposals' | 'writer'>): Promise<UndoOutcome> {
    const entry = this.entries.at(-1);
    if (!entry) return { kind: 'nothing' };
    const { reverted, changedSince } = await deps.writer.restore(entry.writes);
    if (changedSince.length > 0) return { kind: 'changed-since', entry, changedSince };
    this.entries.pop();
    await deps.proposals.save(entry.before);
    await new ReviewMemory(new WorkspaceState(deps.store.dir), entry.before.workspace).restore(entry.memoryBefore);
    return { kind: 'undone', entry, reverted };
  }
}
