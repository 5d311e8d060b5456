import { atomicWrite, readTextIfExists, removeFile } from '../../util/io';
import { removeEmptyFolders } from './createdFolders';
import { planRestore, planWrites } from './writePlan';
import type { ReviewWriter } from './writer';

/** The CLI's writer: plain files, each written atomically once the plan (writePlan.ts) checked every one of them. */
export function fileWriter(workspace: string): ReviewWriter {
  return {
    async write(changes) {
      const { outcome, planned } = await planWrites(workspace, changes, readTextIfExists);
      for (const { target, write } of planned) {
        await atomicWrite(target, write.after);
        outcome.written.push(write.path);
        outcome.writes.push(write);
      }
      return outcome;
    },

    async restore(writes) {
      const { outcome, steps } = await planRestore(workspace, writes, readTextIfExists);
      for (const { target, step } of steps) {
        if (step.kind === 'delete') await removeFile(target);
        else if (step.kind === 'write') await atomicWrite(target, step.text);
      }
      if (outcome.changedSince.length === 0)
        removeEmptyFolders(
          workspace,
          writes.flatMap((w) => w.folders ?? []),
        );
      return outcome;
    },
  };
}
