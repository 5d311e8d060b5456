import { describeBatchMode } from '../../core/learn/record/batchMode';
import { describeDrops, dropSummary } from '../../core/learn/record/callItems';
import { callName } from '../../core/learn/record/callItemsText';
import type { LiveRunSnapshot } from '../../core/learn/record/liveRun';
import type { RunNode, RunRecord } from '../../core/learn/record/record';
import type { NodeDetailView, NodeMark, RunNodeView, RunSummaryView, RunView } from '../../shared/protocol';
import { nodeDetailView, nodeSummary, type CallNames } from './nodeDetail';

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

/**
 * A run as the aggregation-tree panel draws it: its batches with the mode each really ran in, and the tree's nodes.
 * `flaggedRules`: the rules of the run's proposal the trust screen holds back (their apply node is marked).
 */
export function runView(record: RunRecord, flaggedRules: RuleIds = new Set()): RunView {
  const nameOf = callNames(record.nodes);
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
    nodes: record.nodes.map((n) => nodeView(n, nodeDetailView(n, nameOf), flaggedRules, nameOf)),
    ...drops(record.nodes),
    layout: record.layout,
  };
}

/** Rule ids, as a set or the keys of a map. */
type RuleIds = Pick<ReadonlySet<string>, 'has'>;

function drops(nodes: readonly RunNode[]): Pick<RunView, 'drops'> {
  const line = describeDrops(dropSummary(nodes));
  return line ? { drops: line } : {};
}

/** The calls of a run named by their node ids (a redo names the call whose drops it sends again). */
function callNames(nodes: readonly RunNode[]): CallNames {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return (id) => {
    const node = byId.get(id);
    return node && callName(node);
  };
}

function nodeView(
  n: RunNode,
  detail: NodeDetailView | undefined,
  flaggedRules: RuleIds,
  nameOf: CallNames,
): RunNodeView {
  const marks: NodeMark[] = [];
  if (n.retries) marks.push('retried');
  if (n.hedges) marks.push('hedged');
  if (n.items?.dropped) marks.push('dropped');
  if (n.items?.redoOf) marks.push('redo');
  if (detail?.kind === 'applied' && detail.operations.some((op) => op.ruleId && flaggedRules.has(op.ruleId)))
    marks.push('flagged');
  return {
    id: n.id,
    kind: n.kind,
    batch: n.batch,
    level: n.level,
    label: n.label,
    summary: nodeSummary(n, marks.includes('flagged'), nameOf),
    parents: n.parents,
    status: n.status,
    ...(marks.length ? { marks } : {}),
    latencyMs: n.latencyMs,
    tokens: (n.inputTokens ?? 0) + (n.outputTokens ?? 0) || undefined,
    costUsd: n.costUsd,
    traceId: detail?.kind === 'session' ? detail.traceId : undefined,
    detail,
  };
}

/** The id the panel knows a run in progress by (a recorded run's id is a time and a random suffix). */
export const LIVE_RUN_ID = 'live';

/** A run in progress as the panel draws it: the nodes of the calls finished so far, laid out in the panel. */
export function liveRunView(live: LiveRunSnapshot): RunView {
  const batches = [...new Set(live.nodes.map((n) => n.batch))].sort((a, b) => a - b);
  const nameOf = callNames(live.nodes);
  return {
    id: LIVE_RUN_ID,
    startedAt: live.startedAt,
    status: 'in progress',
    provider: live.provider,
    model: live.model,
    strategy: live.strategy,
    traces: live.traces,
    calls: live.calls,
    applied: live.nodes.filter((n) => n.kind === 'apply').length,
    costUsd: live.costUsd,
    seed: live.seed,
    duplication: live.duplication,
    batchSize: 0,
    batches: batches.map((index) => ({
      index,
      sessions: live.nodes.filter((n) => n.batch === index && n.kind === 'trace').length,
      mode: 'in progress',
      description: 'in progress: nodes appear as their calls finish',
    })),
    nodes: live.nodes.map((n) => nodeView(n, undefined, new Set(), nameOf)),
    ...drops(live.nodes),
  };
}

/** The run as it is sent: every node without its content, which the webview asks for when a node is selected. */
export function runMessageView(view: RunView): RunView {
  return { ...view, nodes: view.nodes.map(({ detail: _detail, ...node }) => node) };
}
