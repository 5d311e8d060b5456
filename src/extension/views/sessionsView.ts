import * as vscode from 'vscode';
import type { LearningStatus } from '../../core/service/learningStatus';
import { sessionPage, type SessionPage, type SessionRow } from '../../core/service/sessionList';
import { escapeMarkdown } from '../../core/eval/render';
import { firstLine, plural } from '../../core/util/text';
import { captureSessions } from '../capture';
import { workspaceFolderPaths, type Services } from '../services';
import { emptySessionsReport } from '../../core/service/emptySessionsText';
import { searchedFolders } from './emptySessions';
import { skippedChildren, skippedItem, skippedRoot, type SkippedNode } from './skippedNodes';
import { COMMANDS } from '../commandIds';
import { VIEWS } from '../viewIds';

const AGENT_ICONS: Record<string, string> = {
  'claude-code': 'sparkle',
  codex: 'terminal',
  copilot: 'copilot',
  'gemini-cli': 'star-empty',
  cursor: 'edit',
  aider: 'comment-discussion',
};

/** Sessions shown at first, and added by each "show more". */
const SESSIONS_PAGE = 200;

type SessionNode = { kind: 'session' } & SessionRow;
type MoreNode = { kind: 'more'; shown: number; total: number };
/** Sessions from one source: this machine's own, or one teammate's bundles (shown when bundles brought any). */
type ContributorNode = { kind: 'contributor'; contributor?: string; sessions: number; rows: SessionNode[] };
export type SessionsViewNode = SkippedNode | SessionNode | MoreNode | ContributorNode;

/** A Sessions view node that stands for one stored session (its context menu's commands get it). */
export function sessionIdOf(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const session = node as { kind?: unknown; summary?: { id?: unknown } };
  return session.kind === 'session' && typeof session.summary?.id === 'string' ? session.summary.id : undefined;
}

/** What the last import left out, then this workspace's sessions: agent, title, time, size, learned, failed or given up. */
export class SessionsView implements vscode.TreeDataProvider<SessionsViewNode> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  private captureStarted = false;
  private shown = SESSIONS_PAGE;
  private view?: vscode.TreeView<SessionsViewNode>;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  /** The view this provider fills: it says there why it is empty (Restricted Mode's own message comes first). */
  attach(view: vscode.TreeView<SessionsViewNode>): void {
    this.view = view;
  }

  async getChildren(element?: SessionsViewNode): Promise<SessionsViewNode[]> {
    if (element?.kind === 'contributor') return element.rows;
    if (element) return element.kind === 'session' || element.kind === 'more' ? [] : skippedChildren(element);
    if (!this.captureStarted) {
      // The first time the view is shown, bring in new sessions (incremental: unchanged files are skipped).
      this.captureStarted = true;
      void vscode.window
        .withProgress({ location: { viewId: VIEWS.sessions } }, () => captureSessions(this.services))
        .then(
          () => this.emitter.fire(),
          (error: Error) => this.services.log.warn(`could not import sessions: ${error.message}`),
        );
    }
    // summaries from the pack indexes: no trace body is read for the list
    const workspaces = workspaceFolderPaths();
    const page = await sessionPage(this.services.store, this.services.state, workspaces, this.shown);
    const sessions = page.rows.map((row): SessionNode => ({ kind: 'session', ...row }));
    const more: MoreNode[] =
      page.total > sessions.length ? [{ kind: 'more', shown: sessions.length, total: page.total }] : [];
    const nodes = [...skippedRoot(this.services.lastImportSkipped), ...byContributor(sessions, page), ...more];
    // Empty, the view shows its welcome (Import Sessions…, Add Session Folders, Show Searched Folders): a message would
    // hide it. Only the import's skipped files beside no session get a line of their own.
    if (this.view && vscode.workspace.isTrusted)
      this.view.message =
        page.total === 0 && nodes.length > 0
          ? 'No agent session ran in this workspace: Import Sessions… (above) reads a folder of session logs.'
          : undefined;
    void vscode.commands.executeCommand('setContext', 'combee.sessionsElsewhere', page.elsewhere.sessions > 0);
    return nodes;
  }

  /** Why the view is empty, with every folder searched: the page its welcome's Show Searched Folders opens. */
  async emptyReport(): Promise<string> {
    const workspaces = workspaceFolderPaths();
    const page = await sessionPage(this.services.store, this.services.state, workspaces, 0);
    return emptySessionsReport(workspaces, page, searchedFolders());
  }

  /** One more page of older sessions (the "show more" node's command). */
  showMore(): void {
    this.shown += SESSIONS_PAGE;
    this.emitter.fire();
  }

  getTreeItem(node: SessionsViewNode): vscode.TreeItem {
    if (node.kind === 'session') return sessionItem(node);
    if (node.kind === 'more') return moreItem(node);
    if (node.kind === 'contributor') return contributorItem(node);
    return skippedItem(node);
  }
}

/** With teammates' sessions present, this machine's first, then each teammate's; otherwise the plain list. */
function byContributor(sessions: SessionNode[], page: SessionPage): SessionsViewNode[] {
  if (page.byContributor.length === 0) return sessions;
  const teamSessions = page.byContributor.reduce((n, c) => n + c.sessions, 0);
  const own = sessions.filter((s) => s.summary.contributor === undefined);
  return [
    ...(page.total > teamSessions
      ? [{ kind: 'contributor' as const, sessions: page.total - teamSessions, rows: own }]
      : []),
    ...page.byContributor.map((c) => ({
      kind: 'contributor' as const,
      contributor: c.contributor,
      sessions: c.sessions,
      rows: sessions.filter((s) => s.summary.contributor === c.contributor),
    })),
  ];
}

function contributorItem(node: ContributorNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    node.contributor ?? 'This machine',
    node.contributor === undefined
      ? vscode.TreeItemCollapsibleState.Expanded
      : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = `combee.sessions.contributor:${node.contributor ?? ''}`;
  item.description =
    node.contributor === undefined
      ? `${plural(node.sessions, 'session')} recorded here`
      : `${plural(node.sessions, 'session')} from team bundles (the name is the exporter's own)`;
  item.iconPath = new vscode.ThemeIcon(node.contributor === undefined ? 'device-desktop' : 'person');
  return item;
}

function moreItem({ shown, total }: MoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`Show ${Math.min(SESSIONS_PAGE, total - shown)} older sessions`);
  item.id = 'combee.sessions.more';
  item.description = `${shown} of ${total} shown`;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command: COMMANDS.showMoreSessions, title: 'Show older sessions' };
  return item;
}

function sessionItem({ summary, status }: SessionNode): vscode.TreeItem {
  const item = new vscode.TreeItem(summary.title ?? summary.id);
  item.id = summary.id;
  const when = summary.startedAt ? new Date(summary.startedAt).toLocaleString() : 'unknown time';
  // a teammate's session (from a team bundle) says whose it is
  const who = summary.contributor ? ` · ${summary.contributor}${summary.signedBy ? ' (verified)' : ''}` : '';
  item.description = `${summary.agent}${who} · ${when} · ${summary.steps} steps${statusNote(status)}`;
  item.iconPath =
    status.kind === 'given up'
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
      : status.kind === 'failed'
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : new vscode.ThemeIcon(AGENT_ICONS[summary.agent] ?? 'history');
  item.tooltip = new vscode.MarkdownString(
    [
      `**${escapeMarkdown(summary.title ?? summary.id)}**`,
      `${summary.agent} ${escapeMarkdown(summary.agentVersion ?? '')} · ${when}`,
      ...(summary.contributor
        ? [
            summary.signedBy
              ? `signed by ${escapeMarkdown(summary.signedBy)} (verified: a team bundle signed with a key of your allowed signers)`
              : `from ${escapeMarkdown(summary.contributor)} (a team bundle; the name is self-declared)`,
          ]
        : []),
      `${summary.steps} steps, ${summary.toolErrors} tool errors, ${summary.userCorrections} corrections, ${summary.redactions} redactions`,
      `${(summary.bytes / 1024).toFixed(1)} KiB`,
      ...(summary.warnings ? [`⚠ ${summary.warnings} warning(s)`] : []),
      // the reason is an error message: shown as text, not read as Markdown
      escapeMarkdown(statusLine(status)),
    ].join('\n\n'),
  );
  // a click opens what the session said and did, as a read-only transcript
  item.command = { command: 'combee.openSession', title: 'Open Transcript', arguments: [summary.id] };
  item.contextValue = {
    learned: 'combee.session.learned',
    new: 'combee.session',
    failed: 'combee.session.failed',
    'given up': 'combee.session.givenUp',
  }[status.kind];
  return item;
}

function statusNote(status: LearningStatus): string {
  switch (status.kind) {
    case 'learned':
      return ' · learned';
    case 'new':
      return '';
    case 'failed':
      return ` · learning failed ${status.count}× (${firstLine(status.reason, 80)})`;
    case 'given up':
      return ` · given up after ${status.count} failures (${firstLine(status.reason, 80)})`;
  }
}

function statusLine(status: LearningStatus): string {
  switch (status.kind) {
    case 'learned':
      return 'learned';
    case 'new':
      return 'not learned yet';
    case 'failed':
      return `learning failed ${status.count}× (the next run tries again): ${status.reason}`;
    case 'given up':
      return `given up after ${status.count} failed tries (no run tries it by itself any more): ${status.reason}`;
  }
}
