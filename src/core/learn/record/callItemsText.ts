import type { CallItems, RunNode } from './record';

/** A call node's name without what its label adds after it ("local delta 4: 3 op(s)…" → "local delta 4"). */
export function callName(node: Pick<RunNode, 'label'>): string {
  return node.label.split(': ')[0];
}

/**
 * What a call did with the items it was given, a few words each: "redo of local delta 4", "dropped 12 of 80 (sent
 * again in 1 smaller call)", "dropped 3 of 40 (carried 2 in code, 1 lost)", "2 rejected with a reason".
 * `nameOf` names the call a redo sends again what it dropped (its id when it is not known).
 */
export function callItemFacts(
  items: CallItems,
  nameOf: (id: string) => string | undefined = () => undefined,
): string[] {
  const facts: string[] = [];
  if (items.redoOf) facts.push(`redo of ${nameOf(items.redoOf) ?? items.redoOf}`);
  if (items.dropped > 0) facts.push(`dropped ${items.dropped} of ${items.in} (${dropFate(items)})`);
  if (items.rejected > 0) facts.push(`${items.rejected} rejected with a reason`);
  return facts;
}

/** What became of a call's dropped items: "sent again in 2 smaller calls", "lost", "carried 2 in code, 1 lost". */
export function dropFate(items: CallItems): string {
  if (items.overloaded && items.redone)
    return `sent again in ${items.redone} smaller call${items.redone === 1 ? '' : 's'}`;
  const carried = items.carried ?? 0;
  const lost = items.dropped - carried;
  if (carried === 0) return 'lost';
  return `carried ${carried} in code${lost > 0 ? `, ${lost} lost` : ''}`;
}

/** A call's label without the count of drops the learner appends to it, which `callItemFacts` says with its fate. */
export function labelWithoutDrops(node: Pick<RunNode, 'label' | 'items'>): string {
  const suffix = node.items?.dropped ? `, dropped ${node.items.dropped} of ${node.items.in}` : '';
  return suffix && node.label.endsWith(suffix) ? node.label.slice(0, -suffix.length) : node.label;
}
