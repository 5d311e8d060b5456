import { join, resolve } from 'node:path';
import { z } from 'zod';
import { shortHash } from '../util/hash';
import { atomicWrite, readJsonFile, removeFile } from '../util/io';

/** A session whose learning failed: how often, why the last time, and in which run. */
const LearningFailure = z.object({ count: z.number().int().min(1), reason: z.string(), runId: z.string() });
const LearnedState = z.object({
  version: z.literal(1),
  learned: z.record(z.string(), z.string()),
  failed: z.record(z.string(), LearningFailure).default({}),
});
export type LearnedState = z.infer<typeof LearnedState>;

/**
 * What Combee keeps per workspace folder, in the per-user store (never in the repository): which sessions were
 * learned or failed, the run records, the proposals and the review memory. This class owns the folder and its paths.
 */
export class WorkspaceState {
  constructor(readonly storeDir: string) {}

  /** The workspace's folder: its name and a hash of its absolute path. */
  dir(workspace: string): string {
    const abs = resolve(workspace);
    const name = abs.split(/[\\/]/).filter(Boolean).pop() ?? 'root';
    return join(this.storeDir, 'workspaces', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}-${shortHash(abs, 10)}`);
  }

  async loadLearned(workspace: string): Promise<LearnedState> {
    const parsed = LearnedState.safeParse(
      await readJsonFile(join(this.dir(workspace), 'learned.json')).catch(() => undefined),
    );
    return parsed.success ? parsed.data : { version: 1, learned: {}, failed: {} };
  }

  /** Records a run's outcome per session: learned ones, and failed ones (counted, to be learned again later). */
  async markLearned(
    workspace: string,
    traceIds: string[],
    runId: string,
    failed: Array<{ id: string; reason: string }> = [],
  ): Promise<void> {
    const state = await this.loadLearned(workspace);
    for (const id of traceIds) {
      state.learned[id] = runId;
      delete state.failed[id];
    }
    for (const { id, reason } of failed)
      state.failed[id] = { count: (state.failed[id]?.count ?? 0) + 1, reason, runId };
    await atomicWrite(join(this.dir(workspace), 'learned.json'), JSON.stringify(state, null, 1));
  }

  /**
   * Forgets what was learned in the workspace: its sessions count as new again (failures and given-up ones too), and
   * the review memory (rules rejected or deleted here) is cleared. Run records and proposals stay, as history.
   */
  async forgetLearning(workspace: string): Promise<void> {
    await removeFile(join(this.dir(workspace), 'learned.json'));
    await removeFile(this.reviewMemoryFile(workspace));
  }

  runsDir(workspace: string): string {
    return join(this.dir(workspace), 'runs');
  }

  proposalsDir(workspace: string): string {
    return join(this.dir(workspace), 'proposals');
  }

  reviewMemoryFile(workspace: string): string {
    return join(this.dir(workspace), 'review-memory.json');
  }

  /** The review decisions that can be walked back, newest last (every front end's). */
  undoFile(workspace: string): string {
    return join(this.dir(workspace), 'undo.json');
  }
}
