import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { waitingSessions } from '../core/service/sessionList';
import { BUNDLE_SUFFIX } from '../core/team/teamLimits';
import { resolveTeamSources } from '../core/team/teamSources';
import { captureFolders, captureSessions } from './capture';
import { runLearning } from './commands/learn';
import { workspaceFolderPaths, type Services } from './services';
import { readSettings } from './settings';

/** A safety net for changes a watcher missed (network drives, sleep); watchers do the live work. */
const CHECK_EVERY_MS = 10 * 60_000;
/** Agents append to a session many times a minute: import once things settle. */
const SETTLE_MS = 5_000;

/**
 * Background capture and learning (both off by default): watchers on the agents' folders (outside the workspace)
 * import new and growing sessions as they are written, and when enough unlearned ones have accumulated for this
 * workspace, learning starts without any prompt or modal dialog.
 */
export function startBackground(services: Services): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  const tick = async () => {
    const settings = readSettings();
    if (!settings.backgroundCapture || busy || services.running) return;
    busy = true;
    try {
      await captureSessions(services);
      if (!settings.backgroundLearning) return;
      // from the pack indexes' summaries: the check reads no trace body
      const waiting = (await waitingSessions(services.store, services.state, workspaceFolderPaths())).length;
      if (waiting >= settings.backgroundThreshold) {
        services.log.info(`${waiting} new session(s) ≥ ${settings.backgroundThreshold}: learning in the background`);
        await runLearning(services, { background: true });
      }
    } catch (error) {
      services.log.warn(`background capture failed: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  };
  let watchers: vscode.Disposable[] = [];
  let settle: NodeJS.Timeout | undefined;
  const soon = () => {
    if (settle) clearTimeout(settle);
    settle = setTimeout(() => void tick(), SETTLE_MS);
  };
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    watchers.forEach((w) => w.dispose());
    watchers = [];
    if (!readSettings().backgroundCapture) return;
    for (const location of captureFolders()) {
      // A location can be a single database file (Cursor's state.vscdb, opencode.db): watch it and its -wal.
      const pattern = statSync(location.path).isFile()
        ? new vscode.RelativePattern(vscode.Uri.file(dirname(location.path)), `${basename(location.path)}*`)
        : new vscode.RelativePattern(vscode.Uri.file(location.path), '**/*.{jsonl,json,md,zst,vscdb,db}');
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      watchers.push(watcher, watcher.onDidCreate(soon), watcher.onDidChange(soon));
    }
    const agentFolders = watchers.length / 3;
    // the team's bundle folders too (a pull brings new bundles); a branch is read at each check
    for (const { folder, glob } of teamBundleGlobs()) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
      watchers.push(watcher, watcher.onDidCreate(soon), watcher.onDidChange(soon));
    }
    services.log.info(
      `background capture: watching ${agentFolders} agent folder(s) and ${watchers.length / 3 - agentFolders} team bundle folder(s)`,
    );
    timer = setInterval(() => void tick(), CHECK_EVERY_MS);
    void tick();
  };
  schedule();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (
      ['combee.capture.background', 'combee.learn.background', 'combee.sources', 'combee.team'].some((key) =>
        e.affectsConfiguration(key),
      )
    )
      schedule();
  });
  return new vscode.Disposable(() => {
    if (timer) clearInterval(timer);
    if (settle) clearTimeout(settle);
    watchers.forEach((w) => w.dispose());
    listener.dispose();
  });
}

/**
 * Globs of the workspace folders' team bundle folders (`combee.team.bundles`), relative to the workspace folder so a
 * folder made later is watched too; none in Restricted Mode, where they are not imported. A folder whose name holds
 * glob characters is not watched (it is still read at each check).
 */
function teamBundleGlobs(): Array<{ folder: vscode.WorkspaceFolder; glob: string }> {
  if (!vscode.workspace.isTrusted) return [];
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .flatMap((folder) =>
      resolveTeamSources(folder.uri.fsPath, readSettings(folder.uri).teamBundles)
        .sources.filter((source) => source.kind === 'folder' && !/[*?{}[\]!]/.test(source.folder))
        .map((source) => ({ folder, glob: `${source.folder}/*${BUNDLE_SUFFIX}` })),
    );
}
