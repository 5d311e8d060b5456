import type {
  CallItemsView,
  CallItemView,
  EvidenceView,
  NodeDetailView,
  OperationView,
  RunNodeView,
} from '../shared/protocol';
import { appliedOpNote } from '../shared/protocol';
import { el } from './dom';

/** Session titles by trace id (a trace node's label is its session's title), for evidence that names sessions. */
export type SessionTitles = ReadonlyMap<string, string>;

/** Opens a session's transcript at the cited steps (the extension shows it read-only, the steps highlighted). */
export type OpenSession = (traceId: string, steps: readonly number[]) => void;

/** What the pane needs to name sessions and open them. */
interface Context {
  titles: SessionTitles;
  open: OpenSession;
}

/** A session named by the evidence, as a link to its transcript at the cited steps. */
function sessionLink(ctx: Context, text: string, traceId: string, steps: readonly number[] = []): HTMLElement {
  const link = el('button', text, 'link');
  link.title =
    steps.length > 1
      ? 'Open the session at these steps'
      : steps.length === 1
        ? 'Open the session at this step'
        : 'Open the session';
  link.addEventListener('click', () => ctx.open(traceId, steps));
  return link;
}

function evidenceText(evidence: EvidenceView, titles: SessionTitles): string {
  const title = titles.get(evidence.traceId) ?? evidence.traceId;
  return evidence.steps.length ? `${title}, step ${evidence.steps.map((s) => `#${s}`).join(', ')}` : title;
}

function supportList(support: EvidenceView[], ctx: Context): HTMLElement {
  const sessions = new Set(support.map((s) => s.traceId)).size;
  const details = el('details', undefined, 'support');
  details.append(el('summary', `supported by ${sessions} session${sessions === 1 ? '' : 's'}`));
  const list = el('ul');
  for (const evidence of support) {
    const item = el('li');
    item.append(sessionLink(ctx, evidenceText(evidence, ctx.titles), evidence.traceId, evidence.steps));
    list.append(item);
  }
  details.append(list);
  return details;
}

function operationItem(op: OperationView, ctx: Context, extra?: string): HTMLElement {
  const item = el('li', undefined, `op op-${op.op.toLowerCase()}`);
  item.dataset.target = op.target;
  item.append(el('span', op.op, 'op-type'), el('span', ` ${op.target}`, 'op-target'));
  if (extra) item.append(el('span', ` — ${extra}`, 'op-status'));
  if (op.content) item.append(el('div', op.content, 'op-content'));
  if (op.support.length) item.append(supportList(op.support, ctx));
  return item;
}

/** Items of one fate, the first few by name (label, text, sessions, the reason of a rejection), with how many more. */
function itemList(title: string, className: string, items: CallItemView[], count: number): HTMLElement[] {
  if (count === 0) return [];
  const list = el('ol', undefined, `call-items ${className}`);
  for (const item of items) {
    const entry = el('li');
    entry.append(el('span', item.label, 'item-label'), el('div', item.text, 'item-text'));
    const meta = `${item.sessions} session(s)${item.reason ? ` · reason: ${item.reason}` : ''}`;
    entry.append(el('div', meta, 'meta'));
    list.append(entry);
  }
  const shown = [el('h3', `${title} (${count})`), list];
  if (count > items.length) shown.push(el('p', `and ${count - items.length} more not listed`, 'empty'));
  return shown;
}

/** What an aggregation call did with the items it was given, then the items it dropped and those it rejected. */
function callItems(items: CallItemsView): HTMLElement {
  const box = el('div', undefined, 'call-outcome');
  const tally = `${items.in} item(s) given: ${items.kept} kept, ${items.merged} merged, ${items.rejected} rejected with a reason, ${items.dropped} dropped${items.dropFate ? ` (${items.dropFate})` : ''}`;
  box.append(el('p', tally, items.dropped > 0 ? 'items-tally has-drops' : 'items-tally'));
  if (items.redoOf) box.append(el('p', `Sends again what ${items.redoOf.name} dropped.`, 'redo-of'));
  box.append(
    ...itemList('Dropped without a reason', 'dropped-items', items.droppedItems, items.dropped),
    ...itemList('Rejected', 'rejected-items', items.rejectedItems, items.rejected),
  );
  return box;
}

function body(detail: NodeDetailView, ctx: Context): HTMLElement {
  switch (detail.kind) {
    case 'session': {
      const list = el('dl');
      list.append(el('dt', 'Agent'), el('dd', detail.agent), el('dt', 'Steps'), el('dd', String(detail.steps)));
      list.append(el('dt', 'Session id'), el('dd', detail.traceId));
      const open = el('dd');
      open.append(sessionLink(ctx, 'Open the transcript', detail.traceId));
      list.append(el('dt', 'Transcript'), open);
      return list;
    }
    case 'lessons': {
      if (detail.lessons.length === 0) return el('p', 'No lesson in this session.', 'empty');
      const list = el('ol', undefined, 'lessons');
      for (const lesson of detail.lessons) {
        const item = el('li');
        item.append(el('div', lesson.content, 'lesson'));
        const meta = el('div', `${lesson.kind} · ${lesson.section} · `, 'meta');
        meta.append(
          sessionLink(ctx, evidenceText(lesson.evidence, ctx.titles), lesson.evidence.traceId, lesson.evidence.steps),
        );
        item.append(meta);
        list.append(item);
      }
      return list;
    }
    case 'members': {
      const list = el('ol', undefined, 'members');
      for (const id of detail.traceIds) {
        const item = el('li');
        item.append(sessionLink(ctx, ctx.titles.get(id) ?? id, id));
        list.append(item);
      }
      return list;
    }
    case 'operations': {
      const list = el('ol', undefined, 'ops');
      for (const op of detail.operations) list.append(operationItem(op, ctx));
      const operations = detail.operations.length ? list : el('p', 'No operation.', 'empty');
      if (!detail.items) return operations;
      const box = el('div');
      box.append(callItems(detail.items), el('h3', `Operations (${detail.operations.length})`), operations);
      return box;
    }
    case 'applied': {
      if (detail.operations.length === 0) return el('p', 'Nothing to apply.', 'empty');
      const list = el('ol', undefined, 'ops');
      for (const op of detail.operations) list.append(operationItem(op, ctx, appliedOpNote(op)));
      if (!detail.reviewNote) return list;
      const box = el('div');
      box.append(el('p', detail.reviewNote, 'review-note'), list);
      return box;
    }
  }
}

/**
 * The details pane for one node: its summary and its real content, all as text. `detail` is `undefined` while it is
 * being fetched and `null` when the node has none.
 */
export function renderDetails(
  node: RunNodeView,
  detail: NodeDetailView | null | undefined,
  titles: SessionTitles,
  open: OpenSession,
): HTMLElement {
  const pane = el('section', undefined, 'details-body');
  pane.append(el('h2', node.label));
  pane.append(el('p', node.summary, 'meta'));
  if (detail === undefined) pane.append(el('p', 'Loading…', 'empty'));
  else pane.append(detail ? body(detail, { titles, open }) : el('p', 'No details recorded for this node.', 'empty'));
  return pane;
}
