// The only way data reaches the webview: typed messages, shared by the extension and the webview bundle.
import type { BatchMode } from '../core/learn/batchMode';

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
  kind: 'trace' | 'reflection' | 'group' | 'single' | 'local' | 'global' | 'apply';
  batch: number;
  level?: number;
  label: string;
  parents: string[];
  status: 'ok' | 'failed' | 'skipped';
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

export type ToWebview =
  | { type: 'init'; panel: PanelKind }
  | { type: 'runs'; runs: RunSummaryView[]; selected?: RunView }
  | { type: 'rules'; rules: RuleView[] }
  | { type: 'error'; message: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'selectRun'; runId: string };

export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; runId?: unknown };
  return message.type === 'ready' || (message.type === 'selectRun' && typeof message.runId === 'string');
}
