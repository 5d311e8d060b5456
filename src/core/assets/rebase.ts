import { applyPatch, structuredPatch } from 'diff';
import { hashContent, makeFileChange, type FileChange } from './proposal';
import { restoredText, storedChange, storedMasked, storedText } from './storedText';

export type RebaseResult =
  | { kind: 'unchanged'; change: FileChange }
  | { kind: 'rebased'; change: FileChange }
  | { kind: 'already-applied' }
  | { kind: 'conflict'; reason: string };

/**
 * Brings a proposed change up to date with the file as it is now. Unchanged since the proposal → as is. Changed →
 * the proposal's own edits (base → after) are patched onto the current text with their context; when the hunks no
 * longer fit, that is a real conflict and nothing is written.
 */
export function rebaseChange(change: FileChange, current: string | undefined): RebaseResult {
  return storedMasked(change.path) ? rebaseMasked(change, current) : rebasePlain(change, current);
}

/**
 * A change stored masked (`storedText.ts`) is re-based as stored, against the file masked the same way; the result
 * gets the file's real values back, and must mask to exactly what was reviewed.
 */
function rebaseMasked(change: FileChange, current: string | undefined): RebaseResult {
  const result = rebasePlain(storedChange(change), storedText(change.path, current));
  if (result.kind === 'already-applied' || result.kind === 'conflict') return result;
  const after = restoredText(change.path, result.change.after, current);
  if ('problem' in after)
    return { kind: 'conflict', reason: `${change.path} changed since the proposal: ${after.problem}` };
  const real = makeFileChange(change.path, current, after.text);
  return real ? { kind: result.kind, change: real } : { kind: 'already-applied' };
}

/** The re-base of texts as they are, masked or not. */
export function rebasePlain(change: FileChange, current: string | undefined): RebaseResult {
  const currentHash = current === undefined ? null : hashContent(current);
  if (currentHash === change.baseHash) return { kind: 'unchanged', change };
  if (current === change.after) return { kind: 'already-applied' };
  if (current === undefined)
    return { kind: 'conflict', reason: `${change.path} was deleted since the proposal was made` };
  if (change.kind === 'create')
    return { kind: 'conflict', reason: `${change.path} was created by someone else since the proposal was made` };
  const patch = structuredPatch(change.path, change.path, change.before, change.after, undefined, undefined, {
    context: 3,
  });
  const patched = applyPatch(current, patch, { fuzzFactor: 0 });
  if (patched === false) return { kind: 'conflict', reason: `${change.path} changed where the proposal edits it` };
  const rebased = makeFileChange(change.path, current, patched);
  return rebased ? { kind: 'rebased', change: rebased } : { kind: 'already-applied' };
}
