import { secretMatches } from './engine';

/**
 * Where a cut may fall, so that cutting first and redacting the kept pieces removes as much as redacting the whole
 * text first: never inside a secret the rules find around the cut (with its context: `password: ` and its value stay
 * together, or go together), and never inside a token (a run of non-separator characters), so a token too long for
 * the window (a JWT, a key body line) is kept whole or dropped whole. Private key blocks cut in two are handled by
 * their own rule (a BEGIN without END, an END without BEGIN). Works on decoded text and on raw JSON bytes viewed as
 * Latin-1 (one character per byte; a backslash escape is a separator).
 */

/** Text looked at on each side of a cut for secrets (a match with its context is shorter; a longer token is kept whole or dropped). */
const WINDOW = 512;
/** How far a cut moves to reach a token boundary before it settles for staying out of secrets. */
const TOKEN_SEARCH = 4096;

const SEPARATOR = new Uint8Array(128);
for (const ch of ' \t\r\n\f\v"\'`,;()[]{}<>|\\') SEPARATOR[ch.charCodeAt(0)] = 1;

function isSeparator(code: number): boolean {
  return code < 128 ? SEPARATOR[code] === 1 : code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000;
}

/** `p` does not fall inside a token: a separator on at least one side (or an end of the text). */
function tokenBoundary(text: string, p: number): boolean {
  return p <= 0 || p >= text.length || isSeparator(text.charCodeAt(p - 1)) || isSeparator(text.charCodeAt(p));
}

type Span = { start: number; end: number };

function crossed(spans: readonly Span[], p: number): boolean {
  for (const s of spans) if (s.start < p && p < s.end) return true;
  return false;
}

function spansAround(text: string, from: number, to: number): Span[] {
  return secretMatches(text.slice(from, to)).map((s) => ({ start: s.start + from, end: s.end + from }));
}

/**
 * The end of a kept head: the largest position ≤ `want` outside every secret and token near it, for which
 * `acceptable` holds (a character boundary of the raw bytes); 0 if there is none near.
 */
export function safeHeadEnd(text: string, want: number, acceptable: (p: number) => boolean = () => true): number {
  const top = Math.max(0, Math.min(want, text.length));
  if (top === 0 || top === text.length) return top;
  const floor = Math.max(0, top - TOKEN_SEARCH);
  // the nearest token boundary first (a few characters back, as a rule); secrets are looked for only around it
  let p = top;
  while (p > floor && !(tokenBoundary(text, p) && acceptable(p))) p--;
  if (p === floor) {
    // one token longer than the search: at least stay out of secrets
    const spans = spansAround(text, Math.max(0, top - WINDOW), Math.min(text.length, top + WINDOW));
    for (p = top; p > floor; p--) if (!crossed(spans, p) && acceptable(p)) return p;
    return 0;
  }
  const spans = spansAround(text, Math.max(0, p - WINDOW), Math.min(text.length, top + WINDOW));
  for (; p > floor; p--) if (tokenBoundary(text, p) && !crossed(spans, p) && acceptable(p)) return p;
  return 0;
}

/** The start of a kept tail: the smallest position ≥ `want` outside every secret and token near it; the text's length if none. */
export function safeTailStart(text: string, want: number, acceptable: (p: number) => boolean = () => true): number {
  const bottom = Math.max(0, Math.min(want, text.length));
  if (bottom === 0 || bottom === text.length) return bottom;
  const ceiling = Math.min(text.length, bottom + TOKEN_SEARCH);
  let p = bottom;
  while (p < ceiling && !(tokenBoundary(text, p) && acceptable(p))) p++;
  if (p === ceiling) {
    const spans = spansAround(text, Math.max(0, bottom - WINDOW), Math.min(text.length, bottom + WINDOW));
    for (p = bottom; p < ceiling; p++) if (!crossed(spans, p) && acceptable(p)) return p;
    return text.length;
  }
  const spans = spansAround(text, Math.max(0, bottom - WINDOW), Math.min(text.length, p + WINDOW));
  for (; p < ceiling; p++) if (tokenBoundary(text, p) && !crossed(spans, p) && acceptable(p)) return p;
  return text.length;
}

/** Bytes before a tail that must be kept to place its start safely (see `safeTailStart`). */
export const CUT_CONTEXT = 2 * WINDOW + 64;
