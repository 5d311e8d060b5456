import type { Decision, FileChange, Proposal, Reviewed, RuleChange } from './proposal';

export type ItemState = 'pending' | Decision;
export type AcceptedFile = Pick<FileChange, 'path' | 'kind'>;

export interface ReviewedFile {
  path: string;
  kind: FileChange['kind'];
  state: ItemState;
  /** The version to review; only pending files have one. */
  change?: FileChange;
}

export interface ReviewedRule {
  id: string;
  op?: RuleChange['op'];
  content?: string;
  held?: boolean;
  state: ItemState;
  /** The change to review; only pending rules have one. */
  rule?: RuleChange;
}

/** A proposal still waiting for review: not closed, and a file left to accept. */
export function isOpen(proposal: Proposal): boolean {
  return (proposal.status === 'pending' || proposal.status === 'partial') && proposal.files.length > 0;
}

/**
 * Every file and rule of a proposal with its state: the pending ones as proposed now, then the ones decided. A file
 * still proposed is pending even if an earlier accept wrote part of it (what is left of it waits).
 */
export function reviewItems(proposal: Proposal): { files: ReviewedFile[]; rules: ReviewedRule[] } {
  const pendingPaths = new Set(proposal.files.map((f) => f.path));
  const decidedRules = new Set(proposal.reviewed.rules.map((r) => r.id));
  return {
    files: [
      ...proposal.files.map((change): ReviewedFile => ({
        path: change.path,
        kind: change.kind,
        state: 'pending',
        change,
      })),
      ...proposal.reviewed.files
        .filter((f) => !pendingPaths.has(f.path))
        .map((f): ReviewedFile => ({ path: f.path, kind: f.kind, state: f.decision })),
    ],
    rules: [
      ...proposal.rules
        .filter((r) => !decidedRules.has(r.id))
        .map((rule): ReviewedRule => ({ id: rule.id, op: rule.op, content: rule.content, state: 'pending', rule })),
      ...proposal.reviewed.rules.map((r): ReviewedRule => ({
        id: r.id,
        op: r.op,
        content: r.content,
        held: r.held,
        state: r.decision,
      })),
    ],
  };
}

/** Files and rules still waiting for a decision (held rules are reported, not counted). */
export function pendingCounts(proposal: Proposal): { files: number; rules: number } {
  if (!isOpen(proposal)) return { files: 0, rules: 0 };
  const items = reviewItems(proposal);
  return {
    files: items.files.filter((f) => f.state === 'pending').length,
    rules: items.rules.filter((r) => r.state === 'pending').length,
  };
}

/**
 * The proposal with these decisions recorded; a later decision on an item replaces an earlier one. `rules` are the
 * original proposal's (a rule accepted alone has left the re-rendered one), `held` the held rules taken by name.
 */
export function withDecisions(
  proposal: Proposal,
  decision: Decision,
  decided: { files?: AcceptedFile[]; rules?: RuleChange[]; held?: Proposal['heldRules'] },
): Proposal {
  const files = decided.files ?? [];
  const rules: Reviewed['rules'] = [
    ...(decided.rules ?? []).map((r) => ({ id: r.id, op: r.op, content: r.content, decision })),
    ...(decided.held ?? []).map((h) => ({ id: h.id, content: h.content, held: true, decision })),
  ];
  return {
    ...proposal,
    reviewed: {
      files: [
        ...proposal.reviewed.files.filter((f) => !files.some((d) => d.path === f.path)),
        ...files.map((f) => ({ path: f.path, kind: f.kind, decision })),
      ],
      rules: [...proposal.reviewed.rules.filter((r) => !rules.some((d) => d.id === r.id)), ...rules],
    },
  };
}

/** The files of an accept that it wrote or found already written: not the conflicts, nor those refused. */
export function acceptedFiles(
  files: FileChange[],
  outcome: { conflicts: string[]; refused: Array<{ path: string }> },
): AcceptedFile[] {
  return files
    .filter((f) => !outcome.conflicts.includes(f.path) && !outcome.refused.some((r) => r.path === f.path))
    .map((f) => ({ path: f.path, kind: f.kind }));
}

/** Rules live in the playbook: accepting its file accepts them, except flagged ones (written marked, not taken by name). */
export function rulesAcceptedWith(proposal: Proposal, accepted: AcceptedFile[], playbookPath: string): RuleChange[] {
  return accepted.some((f) => f.path === playbookPath) ? proposal.rules.filter((r) => r.flags.length === 0) : [];
}

/** The rules still waiting in a proposal, as proposed. */
export function pendingRules(proposal: Proposal): RuleChange[] {
  return reviewItems(proposal).rules.flatMap((r) => (r.state === 'pending' && r.rule ? [r.rule] : []));
}
