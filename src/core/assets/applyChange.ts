import { resolveInWorkspace } from '../trust/workspacePath';
import { atomicWrite, readTextIfExists } from '../util/io';
import type { FileChange } from './proposal';
import { rebaseChange } from './rebase';

export class ConflictError extends Error {
  constructor(
    readonly path: string,
    reason = `${path} changed since the proposal was made`,
  ) {
    super(`${reason}; it was not overwritten`);
    this.name = 'ConflictError';
  }
}

/**
 * Writes one accepted change atomically. A file changed since the proposal is re-based (the proposal's hunks patched
 * onto it with their context); when they no longer fit, ConflictError and the file is left as it is. A path that
 * leaves the workspace (`..`, a symlink out) is refused with OutsideWorkspaceError before anything is read.
 */
export async function applyFileChange(
  workspace: string,
  change: FileChange,
): Promise<'written' | 'rebased' | 'already-applied'> {
  const target = resolveInWorkspace(workspace, change.path);
  const current = await readTextIfExists(target);
  const result = rebaseChange(change, current);
  switch (result.kind) {
    case 'already-applied':
      return 'already-applied';
    case 'conflict':
      throw new ConflictError(change.path, result.reason);
    default:
      await atomicWrite(target, result.change.after);
      return result.kind === 'rebased' ? 'rebased' : 'written';
  }
}
