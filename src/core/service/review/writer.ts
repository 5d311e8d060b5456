import type { FileChange } from '../../assets/proposal';

/** One file a decision wrote: what it held before (undefined: it did not exist) and after, for undo. */
export interface WrittenFile {
  path: string;
  before: string | undefined;
  after: string;
  /** Folders the write created for the file (workspace-relative): undo removes them again when they are empty. */
  folders?: string[];
}

export interface WriteOutcome {
  /** Files changed on disk. */
  written: string[];
  /** Files that already held the change (nothing to write). */
  alreadyApplied: string[];
  /** Files changed since they were rendered whose change was patched onto their new text. */
  rebased: string[];
  /** Files changed where the change edits them: nothing was written. */
  conflicts: Array<{ path: string; reason: string }>;
  /** Paths leaving the workspace (`..`, a symlink out): nothing was written. */
  refused: Array<{ path: string; reason: string }>;
  writes: WrittenFile[];
}

/**
 * Where review decisions are written: plain files for the CLI, the editor's buffers for VS Code. A decision's files
 * go all together or not at all (an agent file citing a rule must not land without the playbook that holds it): with
 * any conflict or refusal, nothing is written. A file changed since it was rendered is re-based, never overwritten.
 */
export interface ReviewWriter {
  write(changes: readonly FileChange[]): Promise<WriteOutcome>;
  /**
   * Puts back what a decision wrote, all of it or nothing: a file edited since is re-based (the decision's hunks
   * taken out around the edits); where the edits touch what the decision wrote, nothing is put back (named).
   */
  restore(writes: readonly WrittenFile[]): Promise<RestoreOutcome>;
}

export interface RestoreOutcome {
  reverted: string[];
  /** Of those, files edited since whose edits were kept. */
  rebased: string[];
  /** Files edited since where the decision wrote: nothing was put back. */
  changedSince: Array<{ path: string; reason: string }>;
}

export const emptyOutcome = (): WriteOutcome => ({
  written: [],
  alreadyApplied: [],
  rebased: [],
  conflicts: [],
  refused: [],
  writes: [],
});
