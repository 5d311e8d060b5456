import type { RunRecord } from '../../core/learn/record/record';

export interface RulePath {
  /** The apply node of the batch that made the rule. */
  applyNodeId: string;
  /** The sessions that support it, the nodes between them and the apply node, and the apply node. */
  nodeIds: string[];
}

interface AppliedEntry {
  id?: unknown;
  status?: unknown;
  support?: Array<{ traceId?: unknown }>;
}

/**
 * Where a rule came from in a run: the sessions in its support, and every node that is both downstream of one of
 * them and upstream of the apply node that made it (their reflections, the groups they were shuffled into, the deltas
 * those fed). `undefined` when this run did not make the rule.
 */
export function rulePath(record: RunRecord, ruleId: string): RulePath | undefined {
  for (const node of record.nodes) {
    if (node.kind !== 'apply' || !Array.isArray(node.detail)) continue;
    const entry = (node.detail as AppliedEntry[]).find((a) => a.id === ruleId && a.status === 'applied');
    if (!entry) continue;
    const batch = record.nodes.filter((n) => n.batch === node.batch);
    const supported = new Set((entry.support ?? []).map((s) => s.traceId).filter((t) => typeof t === 'string'));
    const sources = batch.filter((n) => {
      const traceId = (n.detail as { traceId?: unknown } | undefined)?.traceId;
      return n.kind === 'trace' && typeof traceId === 'string' && supported.has(traceId);
    });
    const children = new Map<string, string[]>();
    for (const n of batch) for (const p of n.parents) children.set(p, [...(children.get(p) ?? []), n.id]);
    const byId = new Map(batch.map((n) => [n.id, n]));
    const downstream = reach(
      sources.map((n) => n.id),
      (id) => children.get(id) ?? [],
    );
    const upstream = reach([node.id], (id) => byId.get(id)?.parents ?? []);
    return {
      applyNodeId: node.id,
      nodeIds: batch.filter((n) => downstream.has(n.id) && upstream.has(n.id)).map((n) => n.id),
    };
  }
  return undefined;
}

/** The start nodes and everything reachable from them. */
function reach(start: string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set(start);
  const todo = [...start];
  for (let id = todo.pop(); id !== undefined; id = todo.pop())
    for (const other of next(id)) {
      if (seen.has(other)) continue;
      seen.add(other);
      todo.push(other);
    }
  return seen;
}
