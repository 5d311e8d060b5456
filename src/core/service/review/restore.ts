import { makeFileChange } from '../../assets/proposal';
import { rebasePlain } from '../../assets/rebase';
import { restoredText, storedMasked, storedText } from '../../assets/storedText';
import type { WrittenFile } from './writer';

/** What undoing one written file takes, given the file as it is now. */
export type RestoreStep =
  | { kind: 'write'; text: string; rebased: boolean }
  | { kind: 'delete' }
  /** It holds what it held before the decision already. */
  | { kind: 'nothing' }
  | { kind: 'conflict'; reason: string };

/**
 * The decision's change taken back out of the file: as it was before when nobody touched it since; when it was edited
 * since, the decision's own hunks are reverted around the edits (re-based, as an accept is), and where the edits touch
 * what the decision wrote, it is a conflict: nothing is overwritten.
 */
export function restoreStep(write: WrittenFile, current: string | undefined): RestoreStep {
  if (!storedMasked(write.path)) return restorePlain(write, current);
  // stored masked: taken back as stored, against the file masked the same way, then given the file's real values
  const masked = {
    path: write.path,
    before: storedText(write.path, write.before),
    after: storedText(write.path, write.after),
  };
  const step = restorePlain(masked, storedText(write.path, current));
  if (step.kind !== 'write') return step;
  const real = restoredText(write.path, step.text, current);
  if ('problem' in real)
    return { kind: 'conflict', reason: `${write.path} was edited since the decision: ${real.problem}` };
  return { ...step, text: real.text };
}

function restorePlain(write: WrittenFile, current: string | undefined): RestoreStep {
  if (current === write.before) return { kind: 'nothing' };
  if (write.before === undefined) {
    // a file the decision created goes only as it was created: anything added since is someone's work
    if (current === write.after) return { kind: 'delete' };
    return { kind: 'conflict', reason: `${write.path} was edited since the decision created it` };
  }
  const reverse = makeFileChange(write.path, write.after, write.before);
  if (!reverse) return { kind: 'nothing' };
  const result = rebasePlain(reverse, current);
  switch (result.kind) {
    case 'unchanged':
      return { kind: 'write', text: write.before, rebased: false };
    case 'rebased':
      return { kind: 'write', text: result.change.after, rebased: true };
    case 'already-applied':
      return { kind: 'nothing' };
    case 'conflict':
      return {
        kind: 'conflict',
        reason:
          current === undefined
            ? `${write.path} was deleted since the decision`
            : `${write.path} was edited since the decision where the decision changed it`,
      };
  }
}
