import * as vscode from 'vscode';
import { learningStatus, type LearningStatus } from '../../core/service/learningStatus';
import type { Trace } from '../../core/trace/model';
import type { LearnedState } from '../../core/trace/store';
import { createWorkspaceMatcher } from '../../core/trace/workspaceMatch';
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

type SessionNode = { kind: 'session'; trace: Trace; status: LearningStatus };
export type SessionsViewNode = SkippedNode | SessionNode;

/** The first non-new status a workspace folder records for the session (learned wins, then given up). */
function statusIn(states: LearnedState[], id: string): LearningStatus {
  const all = states.map((state) => learningStatus(state, id));
  return (
    all.find((s) => s.kind === 'learned') ??
    all.find((s) => s.kind === 'given up') ??
    all.find((s) => s.kind === 'failed') ?? { kind: 'new' }
  );
}

/** What the last import left out, then this workspace's sessions: agent, title, time, size, learned, failed or given up. */
export class SessionsView implements vscode.TreeDataProvider<SessionsViewNode> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  private captureStarted = false;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: SessionsViewNode): Promise<SessionsViewNode[]> {
    if (element) return element.kind === 'session' ? [] : skippedChildren(element);
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
    const inWorkspace = createWorkspaceMatcher(workspaceFolderPaths());
    // learned.json once per refresh, not once per session
    const [traces, states] = await Promise.all([
      this.services.store.listTraces(),
      Promise.all(workspaceFolderPaths().map((ws) => this.services.store.loadLearned(ws))),
    ]);
    const sessions = traces
      .filter((t) => inWorkspace(t.cwd))
      .sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''))
      .map((trace): SessionNode => ({ kind: 'session', trace, status: statusIn(states, trace.id) }));
    return [...skippedRoot(this.services.lastImportSkipped), ...sessions];
  }

  getTreeItem(node: SessionsViewNode): vscode.TreeItem {
    return node.kind === 'session' ? sessionItem(node) : skippedItem(node);
  }
}

function sessionItem({ trace, status }: SessionNode): vscode.TreeItem {
  const item = new vscode.TreeItem(trace.title ?? trace.id);
  item.id = trace.id;
  const when = trace.startedAt ? new Date(trace.startedAt).toLocaleString() : 'unknown time';
  item.description = `${trace.agent} · ${when} · ${trace.steps.length} steps${statusNote(status)}`;
  item.iconPath =
    status.kind === 'given up'
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
      : status.kind === 'failed'
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : new vscode.ThemeIcon(AGENT_ICONS[trace.agent] ?? 'history');
  item.tooltip = new vscode.MarkdownString(
    [
      `**${trace.agent}** ${trace.agentVersion ?? ''}`,
      `${trace.steps.length} steps, ${trace.outcome.toolErrors} tool errors, ${trace.outcome.userCorrections} corrections, ${trace.redactions} redactions`,
      `${(trace.source.bytes / 1024).toFixed(1)} KiB`,
      ...(trace.warnings.length ? [`⚠ ${trace.warnings.length} warning(s)`] : []),
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

const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');

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
