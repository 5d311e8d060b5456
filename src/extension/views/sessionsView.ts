import * as vscode from 'vscode';
import type { LearningStatus } from '../../core/service/learningStatus';
import { sessionPage, type SessionRow } from '../../core/service/sessionList';
import { escapeMarkdown } from '../../core/eval/render';
import { firstLine } from '../../core/util/text';
import { captureSessions } from '../capture';
import { workspaceFolderPaths, type Services } from '../services';
import { skippedChildren, skippedItem, skippedRoot, type SkippedNode } from './skippedNodes';

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
export type SessionsViewNode = SkippedNode | SessionNode | MoreNode;

/** What the last import left out, then this workspace's sessions: agent, title, time, size, learned, failed or given up. */
export class SessionsView implements vscode.TreeDataProvider<SessionsViewNode> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  private captureStarted = false;
  private shown = SESSIONS_PAGE;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: SessionsViewNode): Promise<SessionsViewNode[]> {
    if (element) return element.kind === 'session' || element.kind === 'more' ? [] : skippedChildren(element);
    if (!this.captureStarted) {
      // The first time the view is shown, bring in new sessions (incremental: unchanged files are skipped).
      this.captureStarted = true;
      void vscode.window
        .withProgress({ location: { viewId: 'combee.sessions' } }, () => captureSessions(this.services))
        .then(
          () => this.emitter.fire(),
          (error: Error) => this.services.log.warn(`could not import sessions: ${error.message}`),
        );
    }
    // summaries from the pack indexes: no trace body is read for the list
    const page = await sessionPage(this.services.store, this.services.state, workspaceFolderPaths(), this.shown);
    const sessions = page.rows.map((row): SessionNode => ({ kind: 'session', ...row }));
    const more: MoreNode[] =
      page.total > sessions.length ? [{ kind: 'more', shown: sessions.length, total: page.total }] : [];
    return [...skippedRoot(this.services.lastImportSkipped), ...sessions, ...more];
  }

  /** One more page of older sessions (the "show more" node's command). */
  showMore(): void {
    this.shown += SESSIONS_PAGE;
    this.emitter.fire();
  }

  getTreeItem(node: SessionsViewNode): vscode.TreeItem {
    if (node.kind === 'session') return sessionItem(node);
    if (node.kind === 'more') return moreItem(node);
    return skippedItem(node);
  }
}

function moreItem({ shown, total }: MoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem(`Show ${Math.min(SESSIONS_PAGE, total - shown)} older sessions`);
  item.id = 'combee.sessions.more';
  item.description = `${shown} of ${total} shown`;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command: 'combee.showMoreSessions', title: 'Show older sessions' };
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
      `**${summary.agent}** ${escapeMarkdown(summary.agentVersion ?? '')}`,
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
