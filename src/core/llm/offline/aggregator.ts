import type { AddOp, Delta, DeltaOp } from '../../playbook/delta';
import type { Playbook } from '../../playbook/model';
import { bullets } from '../../playbook/model';
import { memoTokens, nearDuplicateWords } from '../../playbook/similarity';
import { unionSupport } from '../../playbook/support';
import type {
  AggregationInput,
  AggregationResult,
  Aggregator,
  ItemOutcome,
  ItemRef,
  Reflection,
} from '../../learn/types';

/**
 * The offline aggregator: merges lessons that are the same (equal key, or near-identical text), unions their
 * support, drops what the playbook already says, and orders the rest by how many traces support them.
 */
export function aggregateOffline(input: AggregationInput, playbook: Playbook): { delta: Delta; items: ItemOutcome[] } {
  const candidates: Candidate[] = [
    ...input.reflections.flatMap((reflection, r) =>
      lessonsAsOps(reflection).map((op, l) => ({ op, ref: { reflection: r, lesson: l } })),
    ),
    ...input.deltas.flatMap((d, i) =>
      d.ops.flatMap((op, o) => (op.op === 'ADD' ? [{ op, ref: { delta: i, op: o } }] : [])),
    ),
  ];
  const passthrough = input.deltas.flatMap((d, i) =>
    d.ops.flatMap((op, o) => (op.op === 'ADD' ? [] : [{ op, ref: { delta: i, op: o } }])),
  );
  const merged: AddOp[] = [];
  const targetOf = new Map<Candidate, AddOp>();
  const wordsOf = memoTokens();
  const near = (a: string, b: string) => nearDuplicateWords(wordsOf(a), wordsOf(b));
  // one lesson, worded by several sessions: the wording most sessions gave, whatever order they came in, supported
  // by the sessions that gave it (another session's wording says nothing for this one's)
  const votes = new Map<AddOp, Map<string, AddOp>>();
  for (const candidate of candidates) {
    const { op } = candidate;
    const same = merged.find((m) => (m.key && op.key ? m.key === op.key : near(m.content, op.content)));
    const target = same ?? { ...op, support: [] };
    if (!same) merged.push(target);
    targetOf.set(candidate, target);
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
    // one key is the miner's word that the lessons are one (the same action and fix, the same folder): every session
    // that gave it supports it, whatever error or spelling its wording quotes
    const votesOf = [...(votes.get(op)?.values() ?? [])];
    const keyed = op.key !== undefined && votesOf.every((v) => v.key === op.key);
    if (best) Object.assign(op, { ...best, support: unionSupport(keyed ? op.support : best.support) });
  }
  const existing = bullets(playbook);
  const said = new Map<AddOp, string>();
  for (const op of merged) {
    const rule = existing.find((b) => near(b.content, op.content));
    if (rule) said.set(op, `the playbook already says it as [${rule.id}]`);
  }
  const fresh = merged.filter((op) => !said.has(op));
  const order = new Map(fresh.map((op, i) => [op, i]));
  fresh.sort((a, b) => b.support.length - a.support.length || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const tags = [...input.reflections.flatMap((r) => r.tags), ...input.deltas.flatMap((d) => d.tags)];
  const members = new Map<AddOp, number>();
  for (const target of targetOf.values()) members.set(target, (members.get(target) ?? 0) + 1);
  const passed = dedupeOps(passthrough);
  const items: ItemOutcome[] = [
    ...candidates.map(({ op, ref }, i): ItemOutcome => {
      const target = targetOf.get(candidates[i]) as AddOp;
      const reason = said.get(target);
      const fate = reason ? 'rejected' : (members.get(target) ?? 0) > 1 ? 'merged' : 'kept';
      return {
        ref,
        label: labelOf(ref),
        text: op.content,
        sessions: sessionsOf(op),
        fate,
        ...(reason ? { reason } : {}),
      };
    }),
    ...passthrough.map(({ op, ref }, i): ItemOutcome => ({
      ref,
      label: labelOf(ref),
      text: op.op === 'REMOVE' ? `REMOVE ${op.id}` : op.content,
      sessions: sessionsOf(op),
      fate: passed.kept[i] ? 'kept' : 'merged',
    })),
  ];
  return { delta: { ops: [...fresh, ...passed.ops], tags }, items };
}

interface Candidate {
  op: AddOp;
  ref: ItemRef;
}

function labelOf(ref: ItemRef): string {
  return 'reflection' in ref ? `L${ref.reflection + 1}.${ref.lesson + 1}` : `D${ref.delta + 1}.${ref.op + 1}`;
}

function sessionsOf(op: DeltaOp): number {
  return new Set(op.support.map((s) => s.traceId)).size;
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

/** The operations passed on, each once, and which of the given ones was the first of its kind. */
function dedupeOps(given: Array<{ op: DeltaOp }>): { ops: DeltaOp[]; kept: boolean[] } {
  const seen = new Set<string>();
  const kept = given.map(({ op }) => {
    const key = JSON.stringify({ ...op, support: undefined });
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ops: given.filter((_, i) => kept[i]).map(({ op }) => op), kept };
}

export class OfflineAggregator implements Aggregator {
  async aggregate(input: AggregationInput, playbook: Playbook): Promise<AggregationResult> {
    const started = Date.now();
    const { delta, items } = aggregateOffline(input, playbook);
    return {
      value: delta,
      usage: { inputTokens: 0, outputTokens: 0, latencyMs: Date.now() - started },
      warnings: [],
      items,
    };
  }
}
