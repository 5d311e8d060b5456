import type { EmbedFn } from './types';
import type { AddOp, DeltaOp } from '../playbook/delta';
import { bullets, type Playbook } from '../playbook/model';
import { heldFromModels } from '../trust/hold';
import { mayBeOneLesson } from './rules/sameAction';

export const SEMANTIC_DUPLICATE = 0.9;

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * ADDs that say what an existing rule (or an earlier ADD of the same delta) already says in other words, by
 * embedding similarity. The earlier ADD keeps the union of both supports. Vectors are cached for the whole run.
 */
export async function semanticDuplicates(
  ops: DeltaOp[],
  playbook: Playbook,
  embed: EmbedFn,
  cache: Map<string, number[]>,
  signal?: AbortSignal,
  threshold = SEMANTIC_DUPLICATE,
): Promise<Map<DeltaOp, string>> {
  const adds = ops.filter((op): op is AddOp => op.op === 'ADD');
  const reasons = new Map<DeltaOp, string>();
  if (adds.length === 0) return reasons;
  // a held rule is never sent to the embedding model (a new rule repeating it is screened on its own)
  const held = heldFromModels(playbook);
  const existing = bullets(playbook).filter((b) => !held.has(b.id));
  const missing = [...new Set([...existing.map((b) => b.content), ...adds.map((op) => op.content)])].filter(
    (t) => !cache.has(t),
  );
  if (missing.length > 0) {
    const vectors = await embed(missing, signal);
    missing.forEach((text, i) => cache.set(text, vectors[i]));
  }
  const kept: AddOp[] = [];
  for (const op of adds) {
    const v = cache.get(op.content)!;
    // close in meaning is not enough: other targets of one tool, or a rule's opposite, are other lessons
    const same = (text: string) => cosine(v, cache.get(text)!) >= threshold && mayBeOneLesson(op.content, text);
    const rule = existing.find((b) => same(b.content));
    if (rule) {
      reasons.set(op, `same meaning as ${rule.id}`);
      continue;
    }
    const twin = kept.find((k) => same(k.content));
    if (twin) {
      for (const e of op.support) if (!twin.support.some((s) => s.traceId === e.traceId)) twin.support.push(e);
      reasons.set(op, 'same meaning as another new rule of this batch');
      continue;
    }
    kept.push(op);
  }
  return reasons;
}
