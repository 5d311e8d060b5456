import type { StoredLayout } from '../core/learn/record/layout';
// The only way data reaches the webview: typed messages, shared by the extension and the webview bundle.
import type { BatchMode } from '../core/learn/record/batchMode';
import type { NodeKind, NodeStatus } from '../core/learn/record/nodeKinds';

export interface RunSummaryView {
  id: string;
  startedAt: string;
  status: string;
  provider: string;
  model: string;
  strategy: string;
  traces: number;
  calls: number;
  applied: number;
  /** What the run's model calls cost (0 for the offline learner). */
  costUsd: number;
}

/** Where a lesson or an operation comes from: a session and the steps in it that show it. */
export interface EvidenceView {
  traceId: string;
  steps: number[];
}

/** A playbook operation as the tree shows it: what it does, to which rule or section, and who supports it. */
export interface OperationView {
  op: 'ADD' | 'UPDATE' | 'MERGE' | 'REMOVE';
  /** The rule(s) it changes, or the section an ADD goes to. */
  target: string;
  content?: string;
  support: EvidenceView[];
}

/** An item a call was given, as its node lists it: its label in the prompt, its text, and its sessions. */
export interface CallItemView {
  label: string;
  text: string;
  sessions: number;
  /** Why the call rejected it (rejected items only). */
  reason?: string;
}

/** What an aggregation call did with the items it was given: each kept, merged, rejected with a reason, or dropped. */
export interface CallItemsView {
  in: number;
  kept: number;
  merged: number;
  rejected: number;
  dropped: number;
  /** What became of the dropped items, in words ("sent again in 1 smaller call", "carried 2 in code, 1 lost"). */
  dropFate?: string;
  /** The call whose dropped items this one sends again. */
  redoOf?: { id: string; name: string };
  /** The first few of each fate; the counts above say how many there were. */
  droppedItems: CallItemView[];
  rejectedItems: CallItemView[];
}

/** What a node holds, by kind: the tree's details pane shows it as text. */
export type NodeDetailView =
  | { kind: 'session'; traceId: string; agent: string; steps: number }
  | { kind: 'lessons'; lessons: Array<{ section: string; content: string; kind: string; evidence: EvidenceView }> }
  | { kind: 'members'; traceIds: string[] }
  | {
      kind: 'operations';
      operations: OperationView[];
      /** Absent for calls recorded before calls were checked for what they dropped. */
      items?: CallItemsView;
    }
  | {
      kind: 'applied';
      operations: Array<
        OperationView & {
          status: 'applied' | 'skipped';
          ruleId?: string;
          reason?: string;
          /** Where the user's review of it stands now (absent: the run proposed nothing, e.g. a dry run). */
          review?: 'pending' | 'accepted' | 'rejected';
          /** Why the trust screen holds the rule back (kinds of flag), when it does. */
          flags?: string[];
        }
      >;
      /** The review as it is now, in one line ("4 accepted, 1 rejected"), when the run made a proposal. */
      reviewNote?: string;
    };

/**
 * What a node's outline says beside its status: its call was sent again, sent twice, or its rules are held back; its
 * answer dropped items it was given, or it sends again what another call dropped.
 */
export type NodeMark = 'retried' | 'hedged' | 'flagged' | 'dropped' | 'redo';

export interface RunNodeView {
  id: string;
  kind: NodeKind;
  batch: number;
  level?: number;
  label: string;
  /** One line for the hover: the kind, what it holds, and its numbers. */
  summary: string;
  parents: string[];
  status: NodeStatus;
  marks?: NodeMark[];
  latencyMs?: number;
  tokens?: number;
  costUsd?: number;
  /** A session node's trace id (evidence names sessions by it). */
  traceId?: string;
  /** Only on the extension's side: the webview asks for one node's content when it is selected (`nodeDetail`). */
  detail?: NodeDetailView;
}

export interface BatchView {
  index: number;
  sessions: number;
  /** How the batch's delta was really made (`in progress` while its run is still going). */
  mode: BatchMode | 'in progress';
  /** The mode and its numbers in words, as `combee tree` prints them. */
  description: string;
}

export interface RunView extends RunSummaryView {
  seed: number;
  duplication: number;
  batchSize: number;
  batches: BatchView[];
  nodes: RunNodeView[];
  /** How many of its calls dropped how many items, and what became of them; absent when none dropped any. */
  drops?: string;
  /** As the learner laid the run out when it recorded it (absent in older records). */
  layout?: StoredLayout;
}

/** A rule's stage from its counters, or a mark beside it (see core/learn/ruleStanding.ts). */
export type RuleChipView =
  'new' | 'proven' | 'contested' | 'harmful' | 'unconfirmed' | 'stale' | 'violated' | 'flagged' | 'pinned';

export interface RuleView {
  id: string;
  section: string;
  content: string;
  /** Confirmed by this machine's own counting: what the stage and every bar count by. */
  helpful: number;
  harmful: number;
  /** What the playbook line says, when it claims more than was counted here ("claimed by the repository's playbook…"). */
  claim?: string;
  /** Cumulative counts after each run that tagged the rule, oldest first. */
  history: Array<{ at: string; helpful: number; harmful: number }>;
  /** The stage first, then `unconfirmed`, `stale`, `flagged` and `pinned` where they apply. */
  chips: RuleChipView[];
  /** Why the trust screen holds it out of the other assets; [] when it does not. */
  flags: Array<{ kind: string; reason: string }>;
  /** Runs since the last one that tagged or changed it. */
  runsWithoutEvidence: number;
  /** The model that wrote it, `provider/model` as its model mark claims (`unknown` without one), and its prompt. */
  model?: string;
  promptVersion?: string;
  /** The model that last reworded it, when one did. */
  changedBy?: string;
}

/** Rule ids as the playbook writes them: `[id]`, no spaces or brackets. */
const RULE_ID = /^[^\]\s[]{1,120}$/;

export type PanelKind = 'tree' | 'helpfulness';

/** A rule followed into the tree: the path from the sessions that support it to the apply node that made it. */
export interface RuleFocus {
  ruleId: string;
  applyNodeId: string;
  nodeIds: string[];
}

/** A session followed into the tree (Sessions view: Show in Tree): its node, and what its run built on it. */
export interface SessionFocus {
  title: string;
  nodeId: string;
  nodeIds: string[];
}

/**
 * A reply carries the id of the request it answers; an update the extension pushes (a new run, a review) carries
 * none. The webview drops a reply older than its newest request, so a late answer never replaces a newer selection.
 */
export type ToWebview =
  | { type: 'init'; panel: PanelKind }
  | {
      type: 'runs';
      runs: RunSummaryView[];
      selected?: RunView;
      requestId?: number;
      focus?: RuleFocus;
      sessionFocus?: SessionFocus;
    }
  | { type: 'nodeDetail'; requestId: number; nodeId: string; detail?: NodeDetailView }
  | { type: 'searchResult'; requestId: number; nodeIds: string[] }
  | { type: 'rules'; rules: RuleView[]; runs: number; staleAfterRuns: number; playbookPath?: string }
  | { type: 'error'; message: string };

/** `ready` names the run the panel showed before a reload (from its saved state), to show it again. */
export type FromWebview =
  | { type: 'ready'; runId?: string }
  | { type: 'selectRun'; runId: string; requestId: number }
  | { type: 'nodeDetail'; runId: string; nodeId: string; requestId: number }
  | { type: 'search'; runId: string; query: string; requestId: number }
  /** `steps`: every step the evidence cites (highlighted; the cursor goes to the first); `step` alone: that one. */
  | { type: 'openSession'; traceId: string; step?: number; steps?: number[] }
  /** The rule's line in the playbook; its provenance in the tree; a proposal to retire, pin or unpin it. */
  | { type: 'openRule' | 'ruleInTree' | 'retireRule' | 'pinRule' | 'unpinRule'; ruleId: string };

/** More cited steps than this in one message is not evidence a pane shows. */
const MAX_CITED_STEPS = 1000;

export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; runId?: unknown; requestId?: unknown; nodeId?: unknown; query?: unknown };
  const request = typeof message.runId === 'string' && Number.isInteger(message.requestId);
  switch (message.type) {
    case 'ready':
      return message.runId === undefined || typeof message.runId === 'string';
    case 'selectRun':
      return request;
    case 'nodeDetail':
      return request && typeof message.nodeId === 'string';
    case 'search':
      return request && typeof message.query === 'string' && message.query.length <= 200;
    case 'openSession': {
      const { traceId, step, steps } = value as { traceId?: unknown; step?: unknown; steps?: unknown };
      const isStep = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
      return (
        typeof traceId === 'string' &&
        traceId.length <= 300 &&
        (step === undefined || isStep(step)) &&
        (steps === undefined || (Array.isArray(steps) && steps.length <= MAX_CITED_STEPS && steps.every(isStep)))
      );
    }
    case 'openRule':
    case 'ruleInTree':
    case 'retireRule':
    case 'pinRule':
    case 'unpinRule': {
      const { ruleId } = value as { ruleId?: unknown };
      return typeof ruleId === 'string' && RULE_ID.test(ruleId);
    }
    default:
      return false;
  }
}

/** A reply older than the newest request of its kind: the webview drops it (a late answer never wins). */
export function isStaleReply(message: ToWebview, newestRequest: number): boolean {
  return (
    (message.type === 'runs' || message.type === 'nodeDetail' || message.type === 'searchResult') &&
    message.requestId !== undefined &&
    message.requestId < newestRequest
  );
}

/**
 * What became of one change of an apply node, in the run and then in review: "applied in the run · rejected in
 * review" (a rule the run added and the user later rejected is no contradiction), or why the run skipped it.
 */
export function appliedOpNote(op: {
  status: 'applied' | 'skipped';
  reason?: string;
  review?: 'pending' | 'accepted' | 'rejected';
  flags?: readonly string[];
}): string {
  if (op.status === 'skipped') return `skipped in the run: ${op.reason ?? ''}`;
  const review = op.review === undefined ? [] : [op.review === 'pending' ? 'review pending' : `${op.review} in review`];
  const held = op.flags ? [`held back (${op.flags.join(', ')})`] : [];
  return ['applied in the run', ...review, ...held].join(' · ');
}
