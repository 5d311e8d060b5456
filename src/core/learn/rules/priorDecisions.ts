import type { DeltaOp } from '../../playbook/delta';
import { isSameRule } from './sameRule';

// A rule the team turned down — rejected in review, retired, deleted from the playbook — stays down for the sessions
// it was judged on; only sessions outside those may bring it back, and the proposal then says what was decided.

export type DecisionKind = 'rejected' | 'retired' | 'deleted';

export interface PriorDecision {
  kind: DecisionKind;
  content: string;
  section?: string;
  /** The sessions behind the rule when it was decided on (its support, and those that counted for or against it). */
  traceIds: readonly string[];
  /** When it was decided, as recorded then (ISO). */
  at: string;
  reason?: string;
}

export interface Judged {
  /** The latest decision about the same rule. */
  decision: PriorDecision;
  /** The op's sessions none of those decisions saw, in the op's order. */
  fresh: string[];
}

/** An op's rule text and section, for the ops that bring a rule (back) into the playbook. */
function shapeOf(op: DeltaOp): { content: string; section?: string } | undefined {
  if (op.op === 'ADD') return { content: op.content, section: op.section };
  if (op.op === 'UPDATE' || op.op === 'MERGE') return { content: op.content };
  return undefined;
}

/** What the team decided before about the rule this op proposes, if anything. */
export function judgedBefore(decisions: readonly PriorDecision[], op: DeltaOp): Judged | undefined {
  const shape = shapeOf(op);
  if (!shape) return undefined;
  // a new rule is matched by its purpose too; an edit of a rule already there only by its words
  const same = decisions.filter((d) => isSameRule(shape, d, op.op === 'ADD'));
  if (same.length === 0) return undefined;
  const seen = new Set(same.flatMap((d) => d.traceIds));
  const fresh = [...new Set(op.support.map((s) => s.traceId))].filter((id) => !seen.has(id));
  const decision = same.reduce((latest, d) => (d.at > latest.at ? d : latest));
  return { decision, fresh };
}

const dayOf = (at: string) => at.slice(0, 10);

function what(d: PriorDecision): string {
  if (d.kind === 'retired') return `retired on ${dayOf(d.at)} (${d.reason ?? 'retired by the team'})`;
  if (d.kind === 'rejected') return `rejected in review on ${dayOf(d.at)}`;
  return `deleted from the playbook by the team, noticed on ${dayOf(d.at)}`;
}

/** The veto's reason: the rule was decided on and nothing new speaks for it. */
export function vetoReason(judged: Judged): string | undefined {
  return judged.fresh.length === 0 ? `${what(judged.decision)}; no new evidence` : undefined;
}

/** The note a proposed rule carries when new sessions bring back what was decided. */
export function decisionNote(judged: Judged): string | undefined {
  const n = judged.fresh.length;
  return n === 0 ? undefined : `${what(judged.decision)}; proposed again from ${n} new session${n === 1 ? '' : 's'}`;
}

/** The notes of a proposal's rules that come back after a decision, by rule id. */
export function decisionNotes(
  ops: ReadonlyArray<{ ruleId: string; op: DeltaOp }>,
  judge: (op: DeltaOp) => Judged | undefined,
): Map<string, string> {
  const notes = new Map<string, string>();
  for (const { ruleId, op } of ops) {
    const judged = judge(op);
    const note = judged && decisionNote(judged);
    if (note) notes.set(ruleId, note);
  }
  return notes;
}

const NOTE_HEAD = /^(.*? on \d{4}-\d\d-\d\d)\b.*; proposed again from \d+ new sessions?$/;

/** The short form of a decision note, for a list ("retired on 2026-11-20"); undefined for any other note. */
export function decisionNoteHead(note: string): string | undefined {
  return NOTE_HEAD.exec(note)?.[1];
}
