import { readManagedBlock } from '../../assets/managedBlock';
import { hashContent, type FileChange, type RuleChange } from '../../assets/proposal';
import { parsePlaybook } from '../../playbook/markdown';
import { bullets } from '../../playbook/model';
import { readWorkspaceFile } from '../proposalFiles';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A file of the proposal that Combee wrote to since it was rendered (another proposal accepted, an undo): its managed
 * block is not the one the change was made against, or the playbook holds a rule the proposal adds already. Such a
 * file is rendered again: its change patched onto the new text would add a second block, or the same rule twice.
 */
export function rewrittenSince(
  workspace: string,
  change: FileChange,
  playbookPath: string,
  rules: readonly RuleChange[],
): boolean {
  const current = readWorkspaceFile(workspace, change.path);
  if (current === undefined || hashContent(current) === change.baseHash) return false;
  if (change.path === playbookPath) {
    const held = bullets(parsePlaybook(current));
    return rules.some(
      (r) =>
        r.op === 'ADD' && held.some((b) => b.id === r.id || (r.content !== undefined && same(b.content, r.content))),
    );
  }
  try {
    return readManagedBlock(current, change.path) !== readManagedBlock(change.before, change.path);
  } catch {
    return true; // damaged markers: the renderer says what is wrong and leaves the file alone
  }
}
