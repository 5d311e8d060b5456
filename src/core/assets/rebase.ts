import { applyPatch, structuredPatch } from 'diff';
import { hashContent, makeFileChange, type FileChange } from './proposal';

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
