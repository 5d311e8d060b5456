import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { USER_ONLY_SETTINGS } from '../shared/settingIds';
import type { Services } from './services';

/** A repository's value that counts for nothing: the setting, and why. */
export interface IgnoredSetting {
  setting: string;
  why: string;
}

/** workspaceState key: the settings whose refusal was already shown in this workspace. */
const SHOWN_KEY = 'combee.ignoredSettingsShown';
/** A settings file larger than this is not looked into (a repository's file is untrusted). */
const MAX_SETTINGS_BYTES = 1 << 20;
const USER_ONLY_WHY =
  'only your user settings choose where sessions go, which key, which folders are read and what runs';

/** Messages of this session's notices, for the extension tests. */
export const shownNotices: string[] = [];

/**
 * User-only settings a workspace folder or workspace file sets. VS Code may drop such values before `inspect` sees
 * them (their manifest scope is `application` or `machine`), so each folder's `.vscode/settings.json` is read too.
 */
export async function ignoredUserOnlySettings(): Promise<IgnoredSetting[]> {
  const found = new Set<string>();
  const config = vscode.workspace.getConfiguration();
  for (const id of USER_ONLY_SETTINGS) {
    const seen = config.inspect(id);
    if (seen?.workspaceValue !== undefined || seen?.workspaceFolderValue !== undefined) found.add(id);
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    for (const id of await settingsNamedIn(join(folder.uri.fsPath, '.vscode', 'settings.json'))) found.add(id);
  }
  return [...found].sort().map((setting) => ({ setting, why: USER_ONLY_WHY }));
}

/** The user-only setting ids a settings file names as keys (comments left out); none when it cannot be read. */
async function settingsNamedIn(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  if (text.length > MAX_SETTINGS_BYTES) return [];
  // line and block comments out (JSONC); a key is a quoted name followed by a colon
  const bare = text.replace(/("(?:[^"\\\n]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, quoted?: string) => quoted ?? '');
  const keys = new Set([...bare.matchAll(/"([^"\\\n]+)"\s*:/g)].map((m) => m[1]));
  return USER_ONLY_SETTINGS.filter((id) => keys.has(id));
}

/**
 * Says once per workspace per setting, in a notification with Show Log, that a repository's value was ignored (the
 * log has it each time). Returns the settings shown now.
 */
export async function noticeIgnoredSettings(services: Services, ignored: IgnoredSetting[]): Promise<string[]> {
  const state = services.context.workspaceState;
  const shown = new Set(state.get<string[]>(SHOWN_KEY, []));
  const fresh = ignored.filter((i) => !shown.has(i.setting));
  if (fresh.length === 0) return [];
  for (const i of fresh) shown.add(i.setting);
  await state.update(SHOWN_KEY, [...shown].sort());
  const names = fresh.map((i) => i.setting);
  const whys = [...new Set(fresh.map((i) => i.why))];
  const message = `Combee ignored this repository's ${names.join(', ')}: ${whys.join('; ')}. This is said once; the log has the details.`;
  shownNotices.push(message);
  void vscode.window.showWarningMessage(message, 'Show Log').then((choice) => {
    if (choice) services.log.show();
  });
  return names;
}

/** Looks for a repository's user-only settings now and whenever Combee's settings change; logs each, notices once. */
export class IgnoredSettingsWatch implements vscode.Disposable {
  private logged = '';
  /** One check at a time: two could both find a setting not yet shown and show it twice. */
  private queue: Promise<string[]> = Promise.resolve([]);
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly services: Services) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
    const run = () => void this.check();
    this.disposables = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('combee')) run();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(run),
      // a user-only value may not reach the configuration events at all: the files are watched too
      watcher,
      watcher.onDidChange(run),
      watcher.onDidCreate(run),
    ];
    run();
  }

  /** Runs after the checks already started; the settings shown in a notification now. */
  check(): Promise<string[]> {
    this.queue = this.queue.then(
      () => this.checkNow(),
      () => this.checkNow(),
    );
    return this.queue.catch((error: Error) => {
      this.services.log.warn(`settings check: ${error.message}`);
      return [];
    });
  }

  private async checkNow(): Promise<string[]> {
    // in Restricted Mode every view already says the folder's settings are ignored
    if (!vscode.workspace.isTrusted) return [];
    const ignored = await ignoredUserOnlySettings();
    const said = ignored.map((i) => i.setting).join(', ');
    if (said && said !== this.logged)
      this.services.log.warn(`this repository's settings set ${said}, which are ignored: ${USER_ONLY_WHY}`);
    this.logged = said;
    return noticeIgnoredSettings(this.services, ignored);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
