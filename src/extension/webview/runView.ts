import { describeBatchMode } from '../../core/learn/batchMode';
import type { RunNode, RunRecord } from '../../core/learn/record';
import type { RunSummaryView, RunView } from '../../shared/protocol';
import { nodeDetailView, nodeSummary } from './nodeDetail';

/** A run as the run picker lists it. */
export function runSummaryView(record: RunRecord): RunSummaryView {
  return {
    id: record.id,
    startedAt: record.startedAt,
    status: record.status,
    provider: record.provider,
    model: record.model,
    strategy: record.strategy,
    traces: record.totals.traces,
    calls: record.totals.calls,
    applied: record.totals.applied,
    costUsd: record.totals.costUsd,
  };
}

/** A run as the aggregation-tree panel draws it: its batches with the mode each really ran in, and the tree's nodes. */
export function runView(record: RunRecord): RunView {
  return {
    ...runSummaryView(record),
    seed: record.seed,
    duplication: record.duplication,
    batchSize: record.batchSize,
    batches: record.batches.map((b) => ({
      index: b.index,
      sessions: b.traceIds.length,
      mode: b.mode,
      description: describeBatchMode(b),
    })),
    nodes: record.nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      batch: n.batch,
      level: n.level,
      label: n.label,
      summary: nodeSummary(n),
      parents: n.parents,
      status: n.status,
      latencyMs: n.latencyMs,
      tokens: (n.inputTokens ?? 0) + (n.outputTokens ?? 0) || undefined,
      costUsd: n.costUsd,
      traceId: n.kind === 'trace' ? traceIdOf(n) : undefined,
      detail: nodeDetailView(n),
    })),
  };
}

function traceIdOf(node: RunNode): string | undefined {
  const detail = node.detail as { traceId?: unknown } | undefined;
  return typeof detail?.traceId === 'string' ? detail.traceId : undefined;
}

/** The run as it is sent: every node without its content, which the webview asks for when a node is selected. */
export function runMessageView(view: RunView): RunView {
  return { ...view, nodes: view.nodes.map(({ detail: _detail, ...node }) => node) };
}
