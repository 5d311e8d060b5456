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
 * Every file and rule of a proposal with its state, in the order they were first proposed (a decision never moves a
 * row). A file still proposed is pending even if an earlier accept wrote part of it (what is left of it waits).
 */
export function reviewItems(proposal: Proposal): { files: ReviewedFile[]; rules: ReviewedRule[] } {
  const pendingPaths = new Set(proposal.files.map((f) => f.path));
  const decidedRules = new Set(proposal.reviewed.rules.map((r) => r.id));
  const files = [
    ...proposal.files.map((change): ReviewedFile => ({
      path: change.path,
      kind: change.kind,
      state: 'pending',
      change,
    })),
    ...proposal.reviewed.files
      .filter((f) => !pendingPaths.has(f.path))
      .map((f): ReviewedFile => ({ path: f.path, kind: f.kind, state: f.decision })),
  ];
  const rules = [
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
  ];
  return {
    files: inOrder(files, proposal.order?.files ?? [], (f) => f.path),
    rules: inOrder(rules, proposal.order?.rules ?? [], (r) => r.id),
  };
}

/** Items sorted by their place in `order`; those it does not name keep their own order, after it. */
function inOrder<T>(items: T[], order: readonly string[], key: (item: T) => string): T[] {
  const place = new Map(order.map((k, i) => [k, i] as const));
  const at = (item: T) => place.get(key(item)) ?? order.length;
  // Array.prototype.sort is stable: equal places keep the order given
  return [...items].sort((a, b) => at(a) - at(b));
}

/** A proposal's files and rules in the order first proposed: the one kept, extended by what a re-render added. */
export function proposalOrder(proposal: Proposal, kept = proposal.order): NonNullable<Proposal['order']> {
  const extend = (known: readonly string[], seen: readonly string[]) => [
    ...known,
    ...seen.filter((k, i) => !known.includes(k) && seen.indexOf(k) === i),
  ];
  return {
    files: extend(kept?.files ?? [], [
      ...proposal.files.map((f) => f.path),
      ...proposal.reviewed.files.map((f) => f.path),
    ]),
    rules: extend(kept?.rules ?? [], [
      ...proposal.rules.map((r) => r.id),
      ...proposal.heldRules.map((h) => h.id),
      ...proposal.reviewed.rules.map((r) => r.id),
    ]),
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

/** The rules still waiting in a proposal, as proposed. */
export function pendingRules(proposal: Proposal): RuleChange[] {
  return reviewItems(proposal).rules.flatMap((r) => (r.state === 'pending' && r.rule ? [r.rule] : []));
}
