import { join } from 'node:path';
import { atomicWrite, readTextIfExists } from '../util/fs';
import { hashContent, type FileChange } from './proposal';

export class ConflictError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed since the proposal was made; it was not overwritten`);
    this.name = 'ConflictError';
  }
}

/** Writes one accepted change atomically, refusing when the file no longer matches the proposal's base. */
export async function applyFileChange(workspace: string, change: FileChange): Promise<void> {
  const target = join(workspace, ...change.path.split('/'));
  const current = await readTextIfExists(target);
  const currentHash = current === undefined ? null : hashContent(current);
  if (current !== undefined && current === change.after) return;
  if (currentHash !== change.baseHash) throw new ConflictError(change.path);
  await atomicWrite(target, change.after);
}
