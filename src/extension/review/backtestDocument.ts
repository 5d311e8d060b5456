import * as vscode from 'vscode';
import type { BacktestReport } from '../../core/eval/backtest';
import { backtestMarkdown, type BacktestNames } from '../../core/eval/render';

export const BACKTEST_SCHEME = 'combee-backtest';

/** `combee-backtest:/backtest.md?ws=<workspace>`: one page per workspace folder, its latest backtest. */
export function backtestUri(workspace: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: BACKTEST_SCHEME,
    path: '/backtest.md',
    query: new URLSearchParams({ ws: workspace }).toString(),
  });
}

/** The latest backtest of each workspace folder, as a read-only Markdown page (kept for this window only). */
export class BacktestContentProvider implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, BacktestReport>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  /** @param names how the reader knows the rules and sessions (read anew each time the page is shown) */
  constructor(private readonly names: (report: BacktestReport) => Promise<BacktestNames>) {}

  set(report: BacktestReport): vscode.Uri {
    this.reports.set(report.workspace, report);
    const uri = backtestUri(report.workspace);
    this.emitter.fire(uri);
    return uri;
  }

  /** The pages shown again: the proposals or the playbook they name rules by changed. */
  refresh(): void {
    for (const workspace of this.reports.keys()) this.emitter.fire(backtestUri(workspace));
  }

  report(workspace: string): BacktestReport | undefined {
    return this.reports.get(workspace);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const workspace = new URLSearchParams(uri.query).get('ws');
    const report = workspace ? this.reports.get(workspace) : undefined;
    if (!report) return '# Combee backtest\n\nNo backtest has run for this folder yet.\n';
    return backtestMarkdown(report, await this.names(report));
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
