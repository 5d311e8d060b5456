import { bullets, MARK_KINDS, type MarkKind, type Playbook, type RuleMark } from './model';

// A merge's marks, rule by rule and kind by kind (marks.ts keeps them keyed so): a one-sided change wins, as in the
// line merge, with what each kind asks of a merge on top.

export interface MergedMarks {
  marks: RuleMark[];
  /** Rules whose provenance mark one side added or changed: not carried (the merge sees no sessions to count). */
  droppedCorroboration: string[];
  /** Rules whose flag mark one side dropped: kept (only accepting a rule by name clears a flag). */
  restoredFlags: string[];
  /** Rules both sides gave a different model mark: ours is kept. */
  droppedModelMarks: string[];
}

function textsOf(playbook: Playbook): Map<string, string> {
  return new Map((playbook.marks ?? []).map((m) => [`${m.kind} ${m.id}`, m.text]));
}

export function mergeMarks(base: Playbook, ours: Playbook, theirs: Playbook, merged: Playbook): MergedMarks {
  const [b, o, t] = [base, ours, theirs].map(textsOf);
  const rules = new Set(bullets(merged).map((r) => r.id));
  const out: MergedMarks = { marks: [], droppedCorroboration: [], restoredFlags: [], droppedModelMarks: [] };
  const keys = new Set([...b.keys(), ...o.keys(), ...t.keys()]);
  for (const kind of MARK_KINDS)
    for (const id of rules) {
      const key = `${kind} ${id}`;
      if (!keys.has(key)) continue;
      const text = mergedText(kind, id, b.get(key), o.get(key), t.get(key), out);
      if (text !== undefined) out.marks.push({ id, kind, text });
    }
  for (const list of [out.droppedCorroboration, out.restoredFlags, out.droppedModelMarks]) list.sort();
  return out;
}

function mergedText(
  kind: MarkKind,
  id: string,
  b: string | undefined,
  o: string | undefined,
  t: string | undefined,
  out: MergedMarks,
): string | undefined {
  const oneSided = o === b ? t : o;
  switch (kind) {
    case 'corroborated':
      // a count of sessions the merge cannot see: only one neither side touched stays
      if (b !== undefined && o === b && t === b) return b;
      if (oneSided !== undefined) out.droppedCorroboration.push(id);
      return undefined;
    case 'flagged':
      // a flag either side holds its rule back with stays: a merge never lets a rule out
      if (oneSided === undefined && (o ?? t) !== undefined) out.restoredFlags.push(id);
      return oneSided ?? o ?? t;
    case 'model':
      // which model wrote a rule is said once (a claim either way, see authorMark.ts)
      if (o !== undefined && t !== undefined && o !== b && t !== b && o !== t) out.droppedModelMarks.push(id);
      return oneSided;
    case 'removal':
      return undefined;
    default:
      return oneSided;
  }
}
