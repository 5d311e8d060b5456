import { tryResolveInWorkspace } from '../core/trust/workspacePath';
import { readTextIfExists } from '../core/util/io';
import { readSettings } from './settings';

/**
 * A workspace folder's playbook as the settings name it (confined to the folder): its path and text, or undefined
 * when the path leaves the folder or no file is there.
 */
export async function readWorkspacePlaybook(workspace: string): Promise<{ path: string; text: string } | undefined> {
  const path = tryResolveInWorkspace(workspace, readSettings().playbookPath);
  const text = path === undefined ? undefined : await readTextIfExists(path);
  return path === undefined || text === undefined ? undefined : { path, text };
}
