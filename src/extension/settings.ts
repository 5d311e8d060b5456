import * as vscode from 'vscode';
import { OutsideWorkspaceError, workspaceRelative } from '../core/trust/workspacePath';
import { SETTINGS } from '../shared/settingIds';
import { Settings, SETTING_DEFAULTS } from '../shared/settingsSchema';

export type { Settings } from '../shared/settingsSchema';
export { USER_ONLY_SETTINGS, WORKSPACE_SETTINGS } from '../shared/settingIds';
// Every field has exactly one setting in the table.
void (SETTINGS satisfies Record<keyof Settings, { id: string; who: 'user' | 'workspace' }>);

/** Bad values that were replaced by their default (shown once in the log by whoever reads settings for a run). */
export interface SettingProblem {
  setting: string;
  message: string;
}

export function readSettings(scope?: vscode.Uri, problems: SettingProblem[] = []): Settings {
  const c = vscode.workspace.getConfiguration('combee', scope);
  const trusted = vscode.workspace.isTrusted;
  const raw: Record<string, unknown> = {};
  for (const [field, { id, who }] of Object.entries(SETTINGS)) {
    if (who === 'workspace' && trusted) {
      raw[field] = c.get(id);
      continue;
    }
    const seen = c.inspect(id);
    raw[field] = seen?.globalValue ?? seen?.defaultValue;
  }
  const settings = Settings.parse(raw);
  const folder = folderName(scope);
  settings.playbookPath =
    confined(settings.playbookPath, 'playbook.path', folder, problems) ?? SETTING_DEFAULTS.playbookPath;
  const roots = settings.skillRoots
    .map((root) => confined(root, 'assets.skillRoots', folder, problems))
    .filter((r): r is string => r !== undefined);
  settings.skillRoots = roots.length > 0 ? [...new Set(roots)] : [...SETTING_DEFAULTS.skillRoots];
  // each entry is checked against the folder it is read in (src/core/team/teamSources.ts), which logs a refused one
  settings.teamBundles = [...new Set(settings.teamBundles.map((entry) => entry.trim()).filter(Boolean))];
  return settings;
}

/**
 * Whether the user set this field anywhere that is read for it (a workspace's value only in a trusted workspace):
 * some defaults are decided per run, not by the manifest's value.
 */
export function isSetByUser(field: keyof Settings, scope?: vscode.Uri): boolean {
  const { id, who } = SETTINGS[field];
  const seen = vscode.workspace.getConfiguration('combee', scope).inspect(id);
  if (seen?.globalValue !== undefined) return true;
  return (
    who === 'workspace' &&
    vscode.workspace.isTrusted &&
    (seen?.workspaceValue !== undefined || seen?.workspaceFolderValue !== undefined)
  );
}

/** The folder a message names: the scope's workspace folder, or the only one open. */
function folderName(scope?: vscode.Uri): string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder =
    (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? (folders.length === 1 ? folders[0] : undefined);
  return folder ? `"${folder.name}"` : 'that is open';
}

/** A workspace-relative path setting, or undefined (with the reason in `problems`) when it would leave the folder. */
function confined(path: string, setting: string, folder: string, problems: SettingProblem[]): string | undefined {
  try {
    return workspaceRelative(path, folder);
  } catch (error) {
    if (!(error instanceof OutsideWorkspaceError)) throw error;
    problems.push({
      setting: `combee.${setting}`,
      message: `combee.${setting}: ${error.message}; the default is used instead`,
    });
    return undefined;
  }
}
