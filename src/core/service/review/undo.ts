import { z } from 'zod';
import { Proposal } from '../../assets/proposal';
import { storedChange, storedText } from '../../assets/storedText';
import { ReviewMemory, ReviewMemoryData } from '../../store/reviewMemory';
import { WorkspaceState } from '../../store/workspaceState';
import { atomicWrite, readJsonFile } from '../../util/io';
import { proposalAssets } from './assets';
import { foldIntoSuccessor } from './foldBack';
import { commitReview, type ReviewAction, type ReviewDeps, type ReviewPlan, type ReviewResult } from './decide';

const UndoEntry = z.object({
  /** What the decision was, for the message ("accepted rule bui-00002 of proposal run-1"). */
  label: z.string(),
  before: Proposal,
  memoryBefore: ReviewMemoryData,
  writes: z.array(
    z.object({
      path: z.string(),
      before: z.string().optional(),
      after: z.string(),
      folders: z.array(z.string()).optional(),
    }),
  ),
});
/** One decision as it can be walked back: the proposal and review memory before it, and what it wrote. */
export type UndoEntry = z.infer<typeof UndoEntry>;
const UndoFile = z.object({ version: z.literal(1), entries: z.array(UndoEntry) });

export type UndoOutcome =
  | { kind: 'nothing' }
  | { kind: 'undone'; entry: UndoEntry; reverted: string[]; rebased: string[] }
  /** A file the decision wrote was edited since where it wrote: nothing is walked back (files and decisions agree). */
  | { kind: 'changed-since'; entry: UndoEntry; changedSince: Array<{ path: string; reason: string }> };

const list = (ids: string[]) => (ids.length === 1 ? `rule ${ids[0]}` : `rules ${ids.join(', ')}`);

/** A decision in words: "accepted rule bui-00002 of proposal run-1", "accepted retire bui-00001 (proposal …)". */
export function describeAction(action: ReviewAction, proposal: Pick<Proposal, 'id' | 'provider' | 'model'>): string {
  const of = `of proposal ${proposal.id}`;
  // the user's own proposals (Retire…, Pin…) are named by what they do
  const whole = proposal.provider === 'you' ? `${proposal.model} (proposal ${proposal.id})` : `proposal ${proposal.id}`;
  switch (action.kind) {
    case 'accept-all':
      return `accepted ${whole}`;
    case 'reject-all':
      return `rejected ${whole}`;
    case 'accept-rules':
      return `accepted ${list(action.ids)} ${of}`;
    case 'reject-rules':
      return `rejected ${list(action.ids)} ${of}`;
    case 'accept-file':
      return `accepted ${action.path} ${of}`;
    case 'reject-file':
      return `rejected ${action.path} ${of}`;
    case 'accept-edited':
      return `accepted ${action.path} as edited ${of}`;
  }
}

/**
 * The review decisions of one workspace, newest last, kept in the per-user store (never the workspace) so that any
 * front end walks back the same ones, after a reload too: each accept and reject (retiring and pinning are accepts of
 * their proposals), files, proposal and review memory together. Only the newest `limit` are kept.
 */
export class UndoStack {
  private readonly state: WorkspaceState;

  constructor(
    storeDir: string,
    private readonly workspace: string,
    private readonly limit = 50,
  ) {
    this.state = new WorkspaceState(storeDir);
  }

  /** The decisions that can be walked back, oldest first (an unreadable file reads as none). */
  async entries(): Promise<UndoEntry[]> {
    const parsed = UndoFile.safeParse(await readJsonFile(this.state.undoFile(this.workspace)).catch(() => undefined));
    return parsed.success ? parsed.data.entries : [];
  }

  /** The decision on top, if any (what Undo would walk back). */
  async peek(): Promise<UndoEntry | undefined> {
    return (await this.entries()).at(-1);
  }

  private async save(entries: UndoEntry[]): Promise<void> {
    const kept = entries.slice(Math.max(0, entries.length - this.limit));
    await atomicWrite(this.state.undoFile(this.workspace), JSON.stringify({ version: 1, entries: kept }));
  }

  /** Commits a planned decision and keeps what undoing it takes. */
  async commit(deps: ReviewDeps, plan: ReviewPlan): Promise<ReviewResult> {
    const memory = new ReviewMemory(new WorkspaceState(deps.store.dir), plan.proposal.workspace);
    const memoryBefore = await memory.load();
    const result = await commitReview(deps, plan);
    if (result.decided)
      await this.save([
        ...(await this.entries()),
        {
          label: describeAction(plan.action, plan.proposal),
          // the secrets a file holds by design are kept masked; an undo puts back the real ones from the disk
          before: { ...plan.proposal, files: plan.proposal.files.map(storedChange) },
          memoryBefore,
          writes: result.outcome.writes.map((w) => ({
            path: w.path,
            before: storedText(w.path, w.before),
            after: storedText(w.path, w.after),
            ...(w.folders ? { folders: w.folders } : {}),
          })),
        },
      ]);
    return result;
  }

  /** Walks back the newest decision: its files as they were, the proposal and review memory as before it. */
  async undo(deps: Pick<ReviewDeps, 'store' | 'proposals' | 'writer'>): Promise<UndoOutcome> {
    const entries = await this.entries();
    const entry = entries.at(-1);
    if (!entry) return { kind: 'nothing' };
    const restored = await deps.writer.restore(
      entry.writes.map((w) => ({ path: w.path, before: w.before, after: w.after, folders: w.folders })),
    );
    if (restored.changedSince.length > 0) return { kind: 'changed-since', entry, changedSince: restored.changedSince };
    await this.save(entries.slice(0, -1));
    const now = await deps.proposals.load(entry.before.workspace, entry.before.id);
    if (now?.status === 'superseded') {
      // a newer run took its place since: it stays superseded, and what the decision took waits in the newer one
      await deps.proposals.save({
        ...entry.before,
        status: 'superseded',
        supersededBy: now.supersededBy,
        tags: [],
        counts: [],
      });
      const playbookPath = proposalAssets(entry.before).playbookPath;
      await foldIntoSuccessor(
        deps,
        entry.before,
        now,
        entry.writes.some((w) => w.path === playbookPath),
      );
    } else await deps.proposals.save(entry.before);
    await new ReviewMemory(new WorkspaceState(deps.store.dir), entry.before.workspace).restore(entry.memoryBefore);
    return { kind: 'undone', entry, reverted: restored.reverted, rebased: restored.rebased };
  }
}
