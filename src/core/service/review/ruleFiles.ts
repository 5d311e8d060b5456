import type { FileChange } from '../../assets/proposal';

/** The lines of a text that cite a rule (`[id]`), joined: equal before and after when the change leaves it alone. */
function citing(text: string, id: string): string {
  const tag = `[${id}]`;
  return text
    .split('\n')
    .filter((line) => line.includes(tag))
    .join('\n');
}

/**
 * The rules a file's change holds: those whose citing lines it adds, edits or removes (a rule added, reworded,
 * marked or retired there). A counter moving on a rule is a change of that rule's line too, which is why only the
 * proposal's pending rules are asked about.
 */
export function rulesInFile<R extends { id: string }>(change: FileChange, rules: readonly R[]): R[] {
  return rules.filter((r) => citing(change.before, r.id) !== citing(change.after, r.id));
}
