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

/** Words that turn a statement around: said by one of two texts only, they make the texts opposites. */
const NEGATIONS = new Set(['never', 'not', 'no', 'nor', 'don', 'doesn', 'shouldn', 'mustn', 'avoid', 'without']);

/**
 * Whether two texts say different things however many words they share: each names code the other does not (one
 * target put for another: `make gen-001` / `make gen-002`), or only one of them negates ("never …" / "always …").
 */
export function distinctWords(a: Set<string>, b: Set<string>): boolean {
  const only = (x: Set<string>, y: Set<string>, test: (word: string) => boolean) =>
    [...x].some((w) => test(w) && !y.has(w));
  const code = (w: string) => w.startsWith('`');
  const negation = (w: string) => NEGATIONS.has(w);
  return (only(a, b, code) && only(b, a, code)) || only(a, b, negation) || only(b, a, negation);
}

/** Nearly the same words, and none that make them say different things. */
export function nearDuplicateWords(a: Set<string>, b: Set<string>, threshold = NEAR_DUPLICATE): boolean {
  return jaccard(a, b) >= threshold && !distinctWords(a, b);
}

export function isNearDuplicate(a: string, b: string, threshold = NEAR_DUPLICATE): boolean {
  return nearDuplicateWords(tokens(a), tokens(b), threshold);
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
