import type { RunRecord } from '../../core/learn/record/record';

export interface SessionPath {
  /** The session's node in the run. */
  nodeId: string;
  /** It and what the run made of it: every node of its batch downstream of it, up to the apply node. */
  nodeIds: string[];
}

/** Where a session went in a run: its node and everything its batch built on it. `undefined` when the run lacks it. */
export function sessionPath(record: RunRecord, traceId: string): SessionPath | undefined {
  const start = record.nodes.find(
    (n) => n.kind === 'trace' && (n.detail as { traceId?: unknown } | undefined)?.traceId === traceId,
  );
  if (!start) return undefined;
  const children = new Map<string, string[]>();
  for (const n of record.nodes)
    if (n.batch === start.batch) for (const p of n.parents) children.set(p, [...(children.get(p) ?? []), n.id]);
  const seen = new Set([start.id]);
  const queue = [start.id];
  while (queue.length > 0)
    for (const child of children.get(queue.shift()!) ?? [])
      if (!seen.has(child)) {
        seen.add(child);
        queue.push(child);
      }
  return { nodeId: start.id, nodeIds: record.nodes.filter((n) => seen.has(n.id)).map((n) => n.id) };
}
