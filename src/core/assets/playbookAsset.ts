import { serializePlaybook } from '../playbook/markdown';
import type { Playbook } from '../playbook/model';
import { makeFileChange, type FileChange } from './proposal';

export const DEFAULT_PLAYBOOK_PATH = '.combee/playbook.md';

/** The playbook target: the whole file is Combee's (humans may edit it; their edits were parsed in). */
export function renderPlaybookChange(
  path: string,
  current: string | undefined,
  next: Playbook,
): FileChange | undefined {
  return makeFileChange(path, current, serializePlaybook(next));
}
