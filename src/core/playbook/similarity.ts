/** Lexical near-duplicate detection: token-set Jaccard over normalized words (code spans kept whole). */
const STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'of',
  'and',
  'or',
  'in',
  'on',
  'for',
  'with',
  'it',
  'is',
  'be',
  'this',
  'that',
  'before',
  'after',
  'when',
  'run',
  'use',
]);

export function tokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const code of text.match(/`[^`]+`/g) ?? []) out.add(code.toLowerCase());
  for (const raw of text
    .replace(/`[^`]+`/g, ' ')
    .toLowerCase()
    .split(/[^a-z0-9_./-]+/)) {
    // sentence punctuation is not part of a word, but path separators inside it are
    const word = raw.replace(/^[./-]+|[./-]+$/g, '');
    if (word.length > 1 && !STOP.has(word)) out.add(word);
  }
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

export const NEAR_DUPLICATE = 0.8;

export function isNearDuplicate(a: string, b: string, threshold = NEAR_DUPLICATE): boolean {
  return jaccard(tokens(a), tokens(b)) >= threshold;
}

/** `tokens`, remembered per text: for comparing every item with every other one, each text is split once. */
export function memoTokens(): (text: string) => Set<string> {
  const known = new Map<string, Set<string>>();
  return (text) => {
    let found = known.get(text);
    if (!found) known.set(text, (found = tokens(text)));
    return found;
  };
}
