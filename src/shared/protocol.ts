// The only way data reaches the webview: typed messages, shared by the extension and the webview bundle.
import type { BatchMode } from '../core/learn/batchMode';
import type { NodeKind, NodeStatus } from '../core/learn/nodeKinds';

export interface RunSummaryView {
  id: string;
  startedAt: string;
  status: string;
  provider: string;
  model: string;
  strategy: string;
  traces: number;
  calls: number;
  applied: number;
}

export interface RunNodeView {
  id: string;
  kind: NodeKind;
  batch: number;
  level?: number;
  label: string;
  parents: string[];
  status: NodeStatus;
  latencyMs?: number;
  tokens?: number;
}

export interface BatchView {
  index: number;
  sessions: number;
  /** How the batch's delta was really made. */
  mode: BatchMode;
  /** The mode and its numbers in words, as `combee tree` prints them. */
  description: string;
}

export interface RunView extends RunSummaryView {
  seed: number;
  duplication: number;
  batchSize: number;
  batches: BatchView[];
  nodes: RunNodeView[];
}

export interface RuleView {
  id: string;
  section: string;
  content: string;
  helpful: number;
  harmful: number;
  /** Cumulative counts after each run that tagged the rule, oldest first. */
  history: Array<{ at: string; helpful: number; harmful: number }>;
}

export type PanelKind = 'tree' | 'helpfulness';

/**
 * A reply carries the id of the request it answers; an update the extension pushes (a new run, a review) carries
 * none. The webview drops a reply older than its newest request, so a late answer never replaces a newer selection.
 */
export type ToWebview =
  | { type: 'init'; panel: PanelKind }
  | { type: 'runs'; runs: RunSummaryView[]; selected?: RunView; requestId?: number }
  | { type: 'rules'; rules: RuleView[] }
  | { type: 'error'; message: string };

export type FromWebview = { type: 'ready' } | { type: 'selectRun'; runId: string; requestId: number };

export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; runId?: unknown; requestId?: unknown };
  return (
    message.type === 'ready' ||
    (message.type === 'selectRun' && typeof message.runId === 'string' && Number.isInteger(message.requestId))
  );
}

/** A reply to a run selection older than the newest one asked for: the webview drops it. */
export function isStaleReply(message: ToWebview, newestRequest: number): boolean {
  return message.type === 'runs' && message.requestId !== undefined && message.requestId < newestRequest;
}
