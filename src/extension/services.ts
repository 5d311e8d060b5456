import * as vscode from 'vscode';
import type { LiveRunSnapshot } from '../core/learn/record/liveRun';
import { ProposalStore } from '../core/store/proposals';
import { CallCache } from '../core/llm/cache';
import { createWorkerPool, defaultPoolSize, type WorkerPool } from '../core/pool/pool';
import type { Skipped } from '../core/trace/skipped';
import type { LearnNotice } from '../core/service/learnNotices';
import { TraceStore } from '../core/store/traceStore';
import { WorkspaceState } from '../core/store/workspaceState';
import type { EditDrafts } from './review/editDrafts';
import type { ProposalContentProvider } from './review/proposalDocuments';
import type { BacktestContentProvider } from './review/backtestDocument';
import type { CitedSteps } from './review/citedSteps';
import { readSettings } from './settings';

/** What every command and view shares; created once on activation, cheaply (the pool starts on first use). */
export class Services implements vscode.Disposable {
  /** Traces, their summaries, the import index. */
  readonly store: TraceStore;
  /** Per workspace folder: learned sessions, runs, proposals, review memory. */
  readonly state: WorkspaceState;
  readonly proposals: ProposalStore;
  /** Completed model calls: a resumed or repeated run costs nothing for them. */
  readonly callCache: CallCache;
  private pool?: WorkerPool;
  /** The proposal diffs' content provider: refreshed after a partial accept or reject instead of closing the tabs. */
  proposalDocuments?: ProposalContentProvider;
  /** Drafts of Edit Before Accepting (set on activation). */
  editDrafts?: EditDrafts;
  /** The latest backtest of each folder: its page, and the figures in the Proposals view's rule tooltips. */
  backtestDocuments?: BacktestContentProvider;
  /** The cited steps highlighted in the transcripts open (set on activation). */
  citedSteps?: CitedSteps;
  /** What the last import (all its folders) saw and did not import: the Sessions view shows it. */
  lastImportSkipped?: Skipped;
  /** What the last Learn notice with actions said and offered (the extension's test API reads it). */
  lastLearnNotice?: LearnNotice;
  /** The run in progress, so deactivation can cancel it. */
  currentRun?: AbortController;
  running = false;
  private readonly runningChanged = new vscode.EventEmitter<boolean>();
  readonly onDidChangeRunning = this.runningChanged.event;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when traces, proposals or the playbook changed: views refresh on it. */
  readonly onDidChange = this.changed.event;
  /** The run in progress as its tree has grown so far (the tree panel draws it live); undefined between runs. */
  liveRun?: LiveRunSnapshot;
  private readonly liveChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeLiveRun = this.liveChanged.event;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.store = new TraceStore(context.globalStorageUri.fsPath);
    this.state = new WorkspaceState(this.store.dir);
    this.proposals = new ProposalStore(this.state);
    this.callCache = new CallCache(vscode.Uri.joinPath(context.globalStorageUri, 'cache').fsPath);
  }

  workerPool(): WorkerPool {
    if (!this.pool) {
      const configured = readSettings().poolSize;
      this.pool = createWorkerPool(
        vscode.Uri.joinPath(this.context.extensionUri, 'dist').fsPath,
        configured > 0 ? configured : defaultPoolSize(),
      );
      this.log.info(`worker pool started (${this.pool.size} thread(s))`);
    }
    return this.pool;
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.runningChanged.fire(running);
  }

  notifyChanged(): void {
    this.changed.fire();
  }

  setLiveRun(snapshot: LiveRunSnapshot | undefined): void {
    this.liveRun = snapshot;
    this.liveChanged.fire();
  }

  dispose(): void {
    this.currentRun?.abort();
    this.changed.dispose();
    this.liveChanged.dispose();
    this.runningChanged.dispose();
    // Workers must not outlive the extension host's shutdown (microsoft/vscode#259034).
    void this.pool?.destroy();
    this.pool = undefined;
  }
}

export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
