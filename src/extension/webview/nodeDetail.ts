import { z } from 'zod';
import { callItemFacts, dropFate, labelWithoutDrops } from '../../core/learn/record/callItemsText';
import type { CallItems, RunNode } from '../../core/learn/record/record';
import { Reflection } from '../../core/learn/types';
import { Delta, type DeltaOp } from '../../core/playbook/delta';
import type { CallItemsView, NodeDetailView, OperationView } from '../../shared/protocol';

// A run record is read back from disk: every node's payload is checked against its kind's shape before the webview
// sees it, and one that does not fit is left out (the node still shows, without details).

const SessionDetail = z.object({ traceId: z.string(), agent: z.string(), steps: z.number().int() });
const GroupDetail = z.object({ members: z.array(z.string()) });
const AppliedDetail = z.array(
  z.object({
    op: z.enum(['ADD', 'UPDATE', 'MERGE', 'REMOVE']),
    id: z.string().optional(),
    status: z.enum(['applied', 'skipped']),
    reason: z.string().optional(),
    content: z.string().optional(),
    support: z.array(z.object({ traceId: z.string(), steps: z.array(z.number().int()) })),
  }),
);

function target(op: DeltaOp): string {
  switch (op.op) {
    case 'ADD':
      return op.scope ? `${op.section} (${op.scope})` : op.section;
    case 'MERGE':
      return op.ids.join(' + ');
    default:
      return op.id;
  }
}

export function operationView(op: DeltaOp): OperationView {
  return { op: op.op, target: target(op), content: op.op === 'REMOVE' ? op.reason : op.content, support: op.support };
}

/** Names a call by its node id (see core/learn/callItemsText.ts `callName`); `undefined` when it is not known. */
export type CallNames = (id: string) => string | undefined;

function callItemsView(items: CallItems, nameOf: CallNames): CallItemsView {
  return {
    in: items.in,
    kept: items.kept,
    merged: items.merged,
    rejected: items.rejected,
    dropped: items.dropped,
    ...(items.dropped > 0 ? { dropFate: dropFate(items) } : {}),
    ...(items.redoOf ? { redoOf: { id: items.redoOf, name: nameOf(items.redoOf) ?? items.redoOf } } : {}),
    droppedItems: items.droppedItems ?? [],
    rejectedItems: items.rejectedItems ?? [],
  };
}

/** The node's payload for the details pane, or `undefined` when it has none or it does not fit its kind. */
export function nodeDetailView(node: RunNode, nameOf: CallNames = () => undefined): NodeDetailView | undefined {
  if (node.detail === undefined) return undefined;
  switch (node.kind) {
    case 'trace': {
      const parsed = SessionDetail.safeParse(node.detail);
      return parsed.success ? { kind: 'session', ...parsed.data } : undefined;
    }
    case 'reflection': {
      const parsed = Reflection.safeParse(node.detail);
      if (!parsed.success) return undefined;
      return {
        kind: 'lessons',
        lessons: parsed.data.lessons.map((l) => ({
          section: l.section,
          content: l.content,
          kind: l.kind,
          evidence: l.evidence,
        })),
      };
    }
    case 'group': {
      const parsed = GroupDetail.safeParse(node.detail);
      return parsed.success ? { kind: 'members', traceIds: parsed.data.members } : undefined;
    }
    case 'single':
    case 'local':
    case 'global': {
      const parsed = Delta.safeParse(node.detail);
      if (!parsed.success) return undefined;
      return {
        kind: 'operations',
        operations: parsed.data.ops.map(operationView),
        ...(node.items ? { items: callItemsView(node.items, nameOf) } : {}),
      };
    }
    case 'apply': {
      const parsed = AppliedDetail.safeParse(node.detail);
      if (!parsed.success) return undefined;
      return {
        kind: 'applied',
        operations: parsed.data.map((a) => ({
          op: a.op,
          target: a.id ?? '',
          content: a.content,
          support: a.support,
          status: a.status,
          ruleId: a.id,
          reason: a.reason,
        })),
      };
    }
  }
}

/** Where the review of a run's proposal stands: each rule's state and the kinds of flag of those held back. */
export interface RunReview {
  /** By rule id (see core/assets/review.ts `reviewItems`). */
  states: ReadonlyMap<string, 'pending' | 'accepted' | 'rejected'>;
  flaggedRules: ReadonlyMap<string, readonly string[]>;
}

/** An apply node's operations with where their review stands now and their flags; other details unchanged. */
export function withReview(detail: NodeDetailView | undefined, review: RunReview): NodeDetailView | undefined {
  if (detail?.kind !== 'applied') return detail;
  const operations = detail.operations.map((op) => {
    const applied = op.status === 'applied' && op.ruleId !== undefined;
    const state = applied ? review.states.get(op.ruleId as string) : undefined;
    const flags = applied ? review.flaggedRules.get(op.ruleId as string) : undefined;
    return { ...op, ...(state ? { review: state } : {}), ...(flags ? { flags: [...flags] } : {}) };
  });
  const counts = (['accepted', 'rejected', 'pending'] as const)
    .map((state) => [state, operations.filter((op) => op.review === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  return { ...detail, operations, reviewNote: counts.length ? `Review now: ${counts.join(', ')}` : undefined };
}

const KIND_NAMES: Record<RunNode['kind'], string> = {
  trace: 'Session',
  reflection: 'Reflection',
  group: 'Shuffled group',
  single: 'Aggregation',
  local: 'Local delta',
  global: 'Global delta',
  apply: 'Applied',
};

/** One line for the hover: kind, label, what a call did with its items, and the node's numbers. */
export function nodeSummary(node: RunNode, flagged = false, nameOf: CallNames = () => undefined): string {
  const tokens = (node.inputTokens ?? 0) + (node.outputTokens ?? 0);
  const facts = [
    node.status !== 'ok' ? node.status : '',
    ...(node.items ? callItemFacts(node.items, nameOf) : []),
    node.retries ? `sent again ${node.retries}×` : '',
    node.hedges ? `hedged ${node.hedges}×` : '',
    flagged ? 'holds flagged rules' : '',
    node.latencyMs !== undefined ? `${Math.round(node.latencyMs)} ms` : '',
    tokens ? `${tokens.toLocaleString('en-US')} tokens` : '',
    node.costUsd ? `$${node.costUsd.toFixed(4)}` : '',
  ].filter(Boolean);
  return `${KIND_NAMES[node.kind]}${node.level && node.level > 1 ? ` (level ${node.level})` : ''}: ${labelWithoutDrops(node)}${facts.length ? ` — ${facts.join(', ')}` : ''}`;
}
