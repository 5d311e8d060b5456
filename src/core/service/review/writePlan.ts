import { rebaseChange } from '../../assets/rebase';
import type { FileChange } from '../../assets/proposal';
import { OutsideWorkspaceError, resolveInWorkspace } from '../../trust/workspacePath';
import { missingFolders } from './createdFolders';
import { restoreStep, type RestoreStep } from './restore';
import { emptyOutcome, type RestoreOutcome, type WriteOutcome, type WrittenFile } from './writer';

// What a review decision writes, and what its undo puts back, planned once for both front ends: each reads the files
// its own way (the disk, the editor's buffers) and applies the plan its own way (atomic writes, one WorkspaceEdit).

/** The text a file holds now for the front end (undefined: it does not exist), by its absolute path. */
export type ReadCurrent = (target: string) => Promise<string | undefined>;

export interface PlannedWrite {
  /** The file's absolute path, inside the workspace. */
  target: string;
  write: WrittenFile;
}

export interface WritePlan {
  /** What the decision would do; `written` and `writes` are left for the front end to fill as it applies. */
  outcome: WriteOutcome;
  /** Empty when any file conflicts or is refused: a decision's files go all together or not at all. */
  planned: PlannedWrite[];
}

/** Each change checked against the file it names: refused outside the workspace, re-based, already there, or in conflict. */
export async function planWrites(
  workspace: string,
  changes: readonly FileChange[],
  read: ReadCurrent,
): Promise<WritePlan> {
  const outcome = emptyOutcome();
  const planned: PlannedWrite[] = [];
  for (const change of changes) {
    let target: string;
    try {
      target = resolveInWorkspace(workspace, change.path);
    } catch (error) {
      if (!(error instanceof OutsideWorkspaceError)) throw error;
      outcome.refused.push({ path: change.path, reason: error.message });
      continue;
    }
    const current = await read(target);
    const result = rebaseChange(change, current);
    if (result.kind === 'already-applied') outcome.alreadyApplied.push(change.path);
    else if (result.kind === 'conflict') outcome.conflicts.push({ path: change.path, reason: result.reason });
    else {
      if (result.kind === 'rebased') outcome.rebased.push(change.path);
      const folders = current === undefined ? missingFolders(workspace, change.path) : [];
      planned.push({
        target,
        write: {
          path: change.path,
          before: current,
          after: result.change.after,
          ...(folders.length > 0 ? { folders } : {}),
        },
      });
    }
  }
  if (outcome.conflicts.length > 0 || outcome.refused.length > 0)
    return { outcome: { ...outcome, rebased: [] }, planned: [] };
  return { outcome, planned };
}

export interface RestorePlan {
  outcome: RestoreOutcome;
  /** Empty when any file was edited since where the decision wrote: an undo is all or nothing too. */
  steps: Array<{ target: string; path: string; step: Exclude<RestoreStep, { kind: 'conflict' }> }>;
}

/** What putting back each written file takes; `reverted` and `rebased` are filled as the plan is made. */
export async function planRestore(
  workspace: string,
  writes: readonly WrittenFile[],
  read: ReadCurrent,
): Promise<RestorePlan> {
  const outcome: RestoreOutcome = { reverted: [], rebased: [], changedSince: [] };
  const steps: RestorePlan['steps'] = [];
  for (const write of writes) {
    const target = resolveInWorkspace(workspace, write.path);
    const step = restoreStep(write, await read(target));
    if (step.kind === 'conflict') outcome.changedSince.push({ path: write.path, reason: step.reason });
    else {
      steps.push({ target, path: write.path, step });
      if (step.kind !== 'nothing') outcome.reverted.push(write.path);
      if (step.kind === 'write' && step.rebased) outcome.rebased.push(write.path);
    }
  }
  if (outcome.changedSince.length > 0) return { outcome: { ...outcome, reverted: [], rebased: [] }, steps: [] };
  return { outcome, steps };
}
