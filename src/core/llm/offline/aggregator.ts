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
  // one lesson, worded by several sessions: the wording most sessions gave, whatever order they came in, supported
  // by the sessions that gave it (another session's wording says nothing for this one's)
  const votes = new Map<AddOp, Map<string, AddOp>>();
  for (const op of candidates) {
    const same = merged.find((m) => (m.key && op.key ? m.key === op.key : near(m.content, op.content)));
    const target = same ?? { ...op, support: [] };
    if (!same) merged.push(target);
    target.support = unionSupport(target.support, op.support);
    const byContent = votes.get(target) ?? new Map<string, AddOp>();
    const vote = byContent.get(op.content);
    byContent.set(op.content, vote ? { ...vote, support: unionSupport(vote.support, op.support) } : op);
    votes.set(target, byContent);
  }
  for (const op of merged) {
    const [best] = [...(votes.get(op)?.values() ?? [])].sort(
      (a, b) =>
        b.support.length - a.support.length ||
        a.content.length - b.content.length ||
        a.content.localeCompare(b.content),
    );
    if (best) Object.assign(op, { ...best, support: unionSupport(best.support) });
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
