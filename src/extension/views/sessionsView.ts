import * as vscode from 'vscode';
import type { Trace } from '../../core/trace/model';
import { createWorkspaceMatcher } from '../../core/trace/workspaceMatch';
import { captureSessions } from '../capture';
import { workspaceFolderPaths, type Services } from '../services';

const AGENT_ICONS: Record<string, string> = { 'claude-code': 'sparkle', codex: 'terminal', copilot: 'copilot', 'gemini-cli': 'star-empty', cursor: 'edit', aider: 'comment-discussion' };

/** Sessions of this workspace in the store: agent, title, time, size, learned or not, warnings. */
export class SessionsView implements vscode.TreeDataProvider<Trace> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  private captureStarted = false;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: Trace): Promise<Trace[]> {
    if (element) return [];
    if (!this.captureStarted) {
      // The first time the view is shown, bring in new sessions (incremental: unchanged files are skipped).
      this.captureStarted = true;
      void vscode.window.withProgress({ location: { viewId: 'combee.sessions' } }, () => captureSessions(this.services)).then(
        () => this.emitter.fire(),
        (error: Error) => this.services.log.warn(`could not import sessions: ${error.message}`),
      );
    }
    const inWorkspace = createWorkspaceMatcher(workspaceFolderPaths());
    const traces = await this.services.store.listTraces();
    return traces.filter((t) => inWorkspace(t.cwd)).sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  }

  async getTreeItem(trace: Trace): Promise<vscode.TreeItem> {
    const learned = await this.isLearned(trace);
    const item = new vscode.TreeItem(trace.title ?? trace.id);
    const when = trace.startedAt ? new Date(trace.startedAt).toLocaleString() : 'unknown time';
    item.description = `${trace.agent} · ${when} · ${trace.steps.length} steps${learned ? ' · learned' : ''}`;
    item.iconPath = new vscode.ThemeIcon(AGENT_ICONS[trace.agent] ?? 'history');
    item.tooltip = new vscode.MarkdownString([
      `**${trace.agent}** ${trace.agentVersion ?? ''}`,
      `${trace.steps.length} steps, ${trace.outcome.toolErrors} tool errors, ${trace.outcome.userCorrections} corrections, ${trace.redactions} redactions`,
      `${(trace.source.bytes / 1024).toFixed(1)} KiB · ${learned ? 'learned' : 'not learned yet'}`,
      ...(trace.warnings.length ? [`⚠ ${trace.warnings.length} warning(s)`] : []),
    ].join('\n\n'));
    item.contextValue = learned ? 'combee.session.learned' : 'combee.session';
    return item;
  }

  private async isLearned(trace: Trace): Promise<boolean> {
    for (const ws of workspaceFolderPaths()) if ((await this.services.store.loadLearned(ws)).learned[trace.id]) return true;
    return false;
  }
}
