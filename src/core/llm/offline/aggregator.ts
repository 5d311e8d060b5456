import type { AddOp, Delta, DeltaOp } from '../../playbook/delta';
import type { Playbook } from '../../playbook/model';
import { bullets } from '../../playbook/model';
import { jaccard, memoTokens, NEAR_DUPLICATE } from '../../playbook/similarity';
import { unionSupport } from '../../playbook/support';
import type { AggregationInput, Aggregator, Reflection, RoleResult } from '../../learn/types';

/**
 * The offline aggregator: merges lessons that are the same (equal key, or near-identical text), unions their
 * support, drops what the playbook already says, and orders the rest by how many traces support them.
 */
export function aggregateOffline(input: AggregationInput, playbook: Playbook): Delta {
  const candidates: AddOp[] = [
    ...input.reflections.flatMap(lessonsAsOps),
    ...input.deltas.flatMap((d) => d.ops.filter((op): op is AddOp => op.op === 'ADD')),
  ];
  const passthrough: DeltaOp[] = input.deltas.flatMap((d) => d.ops.filter((op) => op.op !== 'ADD'));
  const merged: AddOp[] = [];
  const wordsOf = memoTokens();
  const near = (a: string, b: string) => jaccard(wordsOf(a), wordsOf(b)) >= NEAR_DUPLICATE;
  for (const op of candidates) {
    const same = merged.find((m) => (m.key && op.key ? m.key === op.key : near(m.content, op.content)));
    if (same) same.support = unionSupport(same.support, op.support);
    else merged.push({ ...op, support: unionSupport(op.support) });
  }
  const existing = bullets(playbook);
  const fresh = merged.filter((op) => !existing.some((b) => near(b.content, op.content)));
  const order = new Map(fresh.map((op, i) => [op, i]));
  fresh.sort((a, b) => b.support.length - a.support.length || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const tags = [...input.reflections.flatMap((r) => r.tags), ...input.deltas.flatMap((d) => d.tags)];
  return { ops: [...fresh, ...dedupeOps(passthrough)], tags };
}

function lessonsAsOps(reflection: Reflection): AddOp[] {
  return reflection.lessons.map((lesson) => ({
    op: 'ADD',
    section: lesson.section,
    content: lesson.content,
    kind: lesson.kind,
    scope: lesson.scope,
    key: lesson.key,
    minSupport: lesson.minSupport,
    support: [lesson.evidence],
  }));
}

function dedupeOps(ops: DeltaOp[]): DeltaOp[] {
  const seen = new Set<string>();
  return ops.filter((op) => {
    const key = JSON.stringify({ ...op, support: undefined });
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export class OfflineAggregator implements Aggregator {
  async aggregate(input: AggregationInput, playbook: Playbook): Promise<RoleResult<Delta>> {
    const started = Date.now();
    const value = aggregateOffline(input, playbook);
    return { value, usage: { inputTokens: 0, outputTokens: 0, latencyMs: Date.now() - started }, warnings: [] };
  }
}
