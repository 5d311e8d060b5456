import type { CallItems, RunNode } from './record';
import type { ItemOutcome } from '../types';

/** Items a node lists by name, of each fate: enough to see which, without a record that grows with the batch. */
export const LISTED_ITEMS = 40;

/** The tally of one call's items, as its node records it. */
export function tallyItems(items: readonly ItemOutcome[], loadTokens: number | undefined): CallItems {
  const count = (fate: ItemOutcome['fate']) => items.filter((i) => i.fate === fate).length;
  const listed = (fate: ItemOutcome['fate']) =>
    items
      .filter((i) => i.fate === fate)
      .slice(0, LISTED_ITEMS)
      .map((i) => ({ label: i.label, text: i.text, sessions: i.sessions, ...(i.reason ? { reason: i.reason } : {}) }));
  const dropped = count('dropped');
  const rejected = count('rejected');
  return {
    in: items.length,
    kept: count('kept'),
    merged: count('merged'),
    rejected,
    dropped,
    ...(loadTokens !== undefined ? { loadTokens } : {}),
    ...(dropped > 0 ? { droppedItems: listed('dropped') } : {}),
    ...(rejected > 0 ? { rejectedItems: listed('rejected') } : {}),
  };
}

/** The share of its items a call dropped. */
export function dropShare(items: Pick<CallItems, 'in' | 'dropped'>): number {
  return items.in === 0 ? 0 : items.dropped / items.in;
}

export interface DropSummary {
  /** Items the calls' answers dropped, whatever became of them. */
  dropped: number;
  /** Calls that sent dropped items again. */
  redoCalls: number;
  /** Dropped items from several sessions passed on in code. */
  carried: number;
  /** Dropped by a call that was not redone and not carried: lost to that call (a copy elsewhere may survive). */
  lost: number;
  /** Calls whose answer dropped items. */
  callsThatDropped: number;
}

/** What the run's aggregation calls dropped, and what was done about it (for the summary, the tree and the log). */
export function dropSummary(nodes: readonly RunNode[]): DropSummary {
  const summary: DropSummary = { dropped: 0, redoCalls: 0, carried: 0, lost: 0, callsThatDropped: 0 };
  for (const node of nodes) {
    const items = node.items;
    if (!items) continue;
    summary.dropped += items.dropped;
    summary.carried += items.carried ?? 0;
    if (items.redoOf) summary.redoCalls++;
    if (items.dropped > 0) summary.callsThatDropped++;
    if (!items.redone) summary.lost += items.dropped - (items.carried ?? 0);
  }
  return summary;
}

/** e.g. "3 call(s) dropped 41 item(s): 38 sent again in 4 smaller call(s), 1 carried in code, 2 lost". */
export function describeDrops(summary: DropSummary): string | undefined {
  if (summary.dropped === 0) return undefined;
  const resent = summary.dropped - summary.lost - summary.carried;
  const parts = [
    resent > 0 ? `${resent} sent again in ${summary.redoCalls} smaller call(s)` : '',
    summary.carried > 0 ? `${summary.carried} from several sessions carried in code` : '',
    summary.lost > 0 ? `${summary.lost} lost` : '',
  ].filter(Boolean);
  return `${summary.callsThatDropped} aggregation call(s) dropped ${summary.dropped} item(s) without a reason: ${parts.join(', ')}`;
}
