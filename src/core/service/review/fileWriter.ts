import { rebaseChange } from '../../assets/rebase';
import type { FileChange } from '../../assets/proposal';
import { OutsideWorkspaceError, resolveInWorkspace } from '../../trust/workspacePath';
import { atomicWrite, readTextIfExists, removeFile } from '../../util/io';
import { missingFolders, removeEmptyFolders } from './createdFolders';
import { restoreStep, type RestoreStep } from './restore';
import { emptyOutcome, type RestoreOutcome, type ReviewWriter, type WriteOutcome, type WrittenFile } from './writer';

/** The CLI's writer: each file written atomically, after every one of them was checked. */
export function fileWriter(workspace: string): ReviewWriter {
  return {
    async write(changes: readonly FileChange[]): Promise<WriteOutcome> {
      const outcome = emptyOutcome();
      const planned: Array<{ target: string; write: WrittenFile }> = [];
      for (const change of changes) {
        let target: string;
        try {
          target = resolveInWorkspace(workspace, change.path);
        } catch (error) {
          if (!(error instanceof OutsideWorkspaceError)) throw error;
          outcome.refused.push({ path: change.path, reason: error.message });
          continue;
        }
        const current = await readTextIfExists(target);
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
      if (outcome.conflicts.length > 0 || outcome.refused.length > 0) return { ...outcome, rebased: [] };
      for (const { target, write } of planned) {
        await atomicWrite(target, write.after);
        outcome.written.push(write.path);
        outcome.writes.push(write);
      }
      return outcome;
    },

    // all or nothing, as a write: a file edited since where the decision wrote leaves every file as it is
    async restore(writes: readonly WrittenFile[]) {
      const outcome: RestoreOutcome = { reverted: [], rebased: [], changedSince: [] };
      const steps: Array<{ target: string; path: string; step: RestoreStep }> = [];
      for (const write of writes) {
        const target = resolveInWorkspace(workspace, write.path);
        const step = restoreStep(write, await readTextIfExists(target));
        if (step.kind === 'conflict') outcome.changedSince.push({ path: write.path, reason: step.reason });
        else steps.push({ target, path: write.path, step });
      }
      if (outcome.changedSince.length > 0) return outcome;
      for (const { target, path, step } of steps) {
        if (step.kind === 'delete') await removeFile(target);
        else if (step.kind === 'write') await atomicWrite(target, step.text);
        if (step.kind !== 'nothing') outcome.reverted.push(path);
        if (step.kind === 'write' && step.rebased) outcome.rebased.push(path);
      }
      removeEmptyFolders(
        workspace,
        writes.flatMap((w) => w.folders ?? []),
      );
      return outcome;
    },
  };
}
