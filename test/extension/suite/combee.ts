import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LearnCommandResult } from '../../../src/extension/commands/learn';
import type { CombeeApi } from '../../../src/extension/extension';
import type { AcceptOutcome } from '../../../src/extension/review/accept';
import type { TeamImportSummary } from '../../../src/extension/teamBundles';
import type { CalibrationResult } from '../../../src/core/learn/capacity/calibrate';
import type { TreeSnapshot } from '../../../src/extension/views/treeSnapshot';

// The extension as the tests drive it: its API (what activate() returns) and its commands, typed.

export function api(): CombeeApi {
  const extension = vscode.extensions.getExtension<CombeeApi>('combee.combee');
  if (!extension) throw new Error('the combee.combee extension is not installed');
  return extension.exports;
}

export async function activate(): Promise<CombeeApi> {
  const extension = vscode.extensions.getExtension<CombeeApi>('combee.combee');
  if (!extension) throw new Error('the combee.combee extension is not installed');
  return extension.activate();
}

/** Combee: Learn from Recent Sessions, as the command palette runs it. */
export function learn(): Thenable<LearnCommandResult | undefined> {
  return vscode.commands.executeCommand<LearnCommandResult | undefined>('combee.learn');
}

/** The test window's (only) workspace folder. */
export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the test window has no workspace folder');
  return folder;
}

/** The capture folder the runner set up (the first of `combee.sources.extraFolders`). */
export function captureHome(): string {
  const folders = vscode.workspace.getConfiguration('combee').get<string[]>('sources.extraFolders') ?? [];
  if (!folders[0]) throw new Error('combee.sources.extraFolders is not set');
  return folders[0];
}

/** What each command the tests run returns (see src/extension/commands). */
interface CommandResults {
  'combee.learn': LearnCommandResult | undefined;
  'combee.acceptProposal': AcceptOutcome | undefined;
  'combee.acceptFile': AcceptOutcome | undefined;
  'combee.acceptRule': AcceptOutcome | undefined;
  'combee.rejectRule': boolean;
  'combee.rejectFile': boolean;
  'combee.showSearchedFolders': string;
  'combee.rejectProposal': boolean;
  'combee.editProposal': boolean;
  'combee.undoDecision': { reverted: string[]; changedSince: string[] } | undefined;
  'combee.importSessions': number | undefined;
  'combee.importTeamBundles': TeamImportSummary;
  'combee.setApiKey': boolean;
  'combee.forgetLearning': boolean;
  'combee.showRuleInTree': boolean;
  'combee.openSession': boolean;
  'combee.showSessionInTree': boolean;
  'combee.forgetSession': boolean;
  'combee.openRuleInPlaybook': boolean;
  'combee.retireRule': string | undefined;
  'combee.pinRule': string | undefined;
  'combee.unpinRule': string | undefined;
  'combee.backtest': string | undefined;
  'combee.calibrateCapacity': CalibrationResult | undefined;
}

/** Runs a Combee command as the palette would, its result typed. */
export function run<C extends keyof CommandResults>(command: C, ...args: unknown[]): Thenable<CommandResults[C]> {
  return vscode.commands.executeCommand<CommandResults[C]>(command, ...args);
}

/** A diff editor's tab, with its input narrowed. */
export type DiffTab = vscode.Tab & { input: vscode.TabInputTextDiff };

/** The open diff editors. */
export function diffTabs(): DiffTab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t): t is DiffTab => t.input instanceof vscode.TabInputTextDiff);
}

/** A workspace file's URI from its workspace-relative path. */
export function fileUri(rel: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceFolder().uri, ...rel.split('/'));
}

/** A workspace file's text. */
export async function readText(rel: string): Promise<string> {
  return Buffer.from(await vscode.workspace.fs.readFile(fileUri(rel))).toString('utf8');
}

/**
 * The workspace as the runner made it, for a test that learns from the example sessions from scratch: Combee forgets
 * what it learned here (sessions and review memory), and the files the tests accept into are put back.
 */
export async function pristineWorkspace(): Promise<void> {
  assert.equal(await run('combee.forgetLearning', true), true, 'forgot what was learned here');
  const template = join(
    vscode.extensions.getExtension('combee.combee')!.extensionPath,
    'test',
    'fixtures',
    'workspace-template',
  );
  writeFileSync(fileUri('AGENTS.md').fsPath, readFileSync(join(template, 'AGENTS.md')));
  for (const rel of ['.combee', 'src/generated/AGENTS.md', 'CLAUDE.md'])
    rmSync(fileUri(rel).fsPath, { recursive: true, force: true });
}

/**
 * The Sessions view's top level with its groups opened: with teammates' sessions in the store the sessions sit under a
 * node per contributor (this machine's first), otherwise at the top.
 */
export async function sessionsViewItems(): Promise<TreeSnapshot[]> {
  const nodes = await api().viewItems('sessions');
  return nodes.flatMap((n) => (n.id?.startsWith('combee.sessions.contributor:') ? n.children : [n]));
}
