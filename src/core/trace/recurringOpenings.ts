import { shortHash } from '../util/hash';

// A custom prompt or persona that an agent expands into a session's first message is text that starts many sessions
// verbatim: context, not the user's words. It is told apart across the sessions of one import by that recurrence
// alone, whatever its wording. Only hashes are kept (in the import index too): never the text.

/** Characters compared: a typed request rarely repeats this much verbatim, a template always does. */
export const OPENING_CHARS = 64;

/** `key:full`: hashes of a message's first OPENING_CHARS characters and of the whole; '' for one too short to tell. */
export function openingOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length < OPENING_CHARS) return '';
  return `${shortHash(flat.slice(0, OPENING_CHARS), 16)}:${shortHash(flat, 16)}`;
}

/** The key of an opening (`openingOf`), or undefined for none. */
export function openingKey(opening: string): string | undefined {
  return opening ? opening.slice(0, opening.indexOf(':')) : undefined;
}

/**
 * The opening keys that recur: in 3 sessions or more, or in 2 whose first messages differ (a template with different
 * arguments). Two sessions with the same whole first message may be one forked from the other, not a template.
 */
export function recurringOpenings(openings: Iterable<string>): Set<string> {
  const sessions = new Map<string, number>();
  const variants = new Map<string, Set<string>>();
  for (const opening of openings) {
    const key = openingKey(opening);
    if (!key) continue;
    sessions.set(key, (sessions.get(key) ?? 0) + 1);
    let seen = variants.get(key);
    if (!seen) variants.set(key, (seen = new Set()));
    seen.add(opening);
  }
  const recurring = new Set<string>();
  for (const [key, count] of sessions)
    if (count >= 3 || (count >= 2 && (variants.get(key)?.size ?? 0) >= 2)) recurring.add(key);
  return recurring;
}
