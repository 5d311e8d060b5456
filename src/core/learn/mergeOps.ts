import type { DeltaOp, Evidence } from '../playbook/delta';
import { nearDuplicateWords, tokens } from '../playbook/similarity';
import { unionSupport } from '../playbook/support';
import type { NodeDelta } from './types';

/**
 * Operations closer than this (token-set Jaccard) are the same lesson, merged in code. Stricter than the playbook's
 * near-duplicate test: what is merged here is never seen by a model again, so two distinct lessons must not meet.
 */
export const SAME_LESSON = 0.9;

export interface MergedDeltas {
  deltas: NodeDelta[];
  /** Operations folded into an earlier one. */
  merged: number;
}

interface Kept {
  op: DeltaOp;
  words: Set<string>;
  support: Evidence[];
}

/**
 * Folds the operations of a level's deltas that are the same lesson — from the duplicated reflections of the
 * augmented shuffle, or from different sessions — into their first occurrence, their support unioned, so the next
 * level's input shrinks instead of growing with the duplication factor. Deterministic: deltas and operations are
 * visited in order, and an operation survives in the delta where it first appeared. Tags pass through unchanged.
 */
export function mergeSameLessons(deltas: readonly NodeDelta[]): MergedDeltas {
  const kept: Kept[] = [];
  const exact = new Map<string, Kept>();
  const byWord = new Map<string, number[]>();
  let merged = 0;
  const survivors = deltas.map(({ delta }) => {
    const mine: Kept[] = [];
    for (const op of delta.ops) {
      const key = exactKey(op);
      const words = tokens(textOf(op));
      const same = exact.get(key) ?? nearest(op, words, kept, byWord);
      if (same) {
        same.support = unionSupport(same.support, op.support);
        merged++;
        continue;
      }
      const entry: Kept = { op, words, support: unionSupport(op.support) };
      exact.set(key, entry);
      for (const word of words) {
        let posting = byWord.get(word);
        if (!posting) byWord.set(word, (posting = []));
        posting.push(kept.length);
      }
      kept.push(entry);
      mine.push(entry);
    }
    return mine;
  });
  return {
    deltas: deltas.map(({ delta, ...node }, d) => ({
      ...node,
      delta: { ...delta, ops: survivors[d].map((entry) => ({ ...entry.op, support: entry.support })) },
    })),
    merged,
  };
}

/** The text that says what an operation does. */
function textOf(op: DeltaOp): string {
  return op.op === 'REMOVE' ? op.reason : op.content;
}

function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;:!]+$/, '')
    .trim();
}

/** Equal for operations that are the same lesson written the same way (case, spacing and end punctuation aside). */
function exactKey(op: DeltaOp): string {
  switch (op.op) {
    case 'ADD':
      return op.key ? `ADD key ${op.key}` : `ADD ${op.scope ?? ''}\u0000${normalized(op.content)}`;
    case 'UPDATE':
      return `UPDATE ${op.id}\u0000${normalized(op.content)}`;
    case 'MERGE':
      return `MERGE ${[...op.ids].sort().join(',')}\u0000${normalized(op.content)}`;
    case 'REMOVE':
      return `REMOVE ${op.id}`;
  }
}

/**
 * An earlier operation of the same kind and target whose words are nearly the same. With Jaccard ≥ 0.9 at most a
 * ninth of this one's words are missing from the other, so one of its rarest `⌊size/9⌋ + 1` words is in it: only
 * the operations sharing one of those are compared.
 */
function nearest(
  op: DeltaOp,
  words: Set<string>,
  kept: readonly Kept[],
  byWord: Map<string, number[]>,
): Kept | undefined {
  if (words.size === 0) return undefined;
  const rarest = [...words].sort(
    (a, b) => (byWord.get(a)?.length ?? 0) - (byWord.get(b)?.length ?? 0) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const probes = rarest.slice(0, Math.floor(words.size / 9) + 1);
  const candidates = new Set<number>();
  for (const word of probes) for (const i of byWord.get(word) ?? []) candidates.add(i);
  for (const i of [...candidates].sort((a, b) => a - b)) {
    const other = kept[i];
    if (sameTarget(op, other.op) && nearDuplicateWords(words, other.words, SAME_LESSON)) return other;
  }
  return undefined;
}

function sameTarget(a: DeltaOp, b: DeltaOp): boolean {
  if (a.op === 'ADD' && b.op === 'ADD') return a.key && b.key ? a.key === b.key : (a.scope ?? '') === (b.scope ?? '');
  if (a.op === 'UPDATE' && b.op === 'UPDATE') return a.id === b.id;
  if (a.op === 'REMOVE' && b.op === 'REMOVE') return a.id === b.id;
  if (a.op === 'MERGE' && b.op === 'MERGE') return [...a.ids].sort().join(',') === [...b.ids].sort().join(',');
  return false;
}
