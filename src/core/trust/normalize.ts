import confusables from 'unhomoglyph/data.json';

// Rule text as a screen should read it: what an agent would execute or obey, not how it was spelled.

/** Zero-width and bidirectional control characters: invisible, so a reader cannot see what they split. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]/g;
/**
 * Full-width and mathematical letters and digits: look like ASCII, are not (NFKC folds them). Full-width punctuation
 * (`，`, `：`, `（`) is how Chinese and Japanese prose is written, not a disguise.
 */
const LOOK_ALIKE_FORMS = /[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]|[\u{1d400}-\u{1d7ff}]/u;
/**
 * Unicode's confusables (TR39 `confusables.txt`, as the `unhomoglyph` package ships it): each character that looks
 * like plain letters or digits, to those letters (`ı` → `i`, Cyrillic `с` → `c`, Greek `ο` → `o`). Only characters
 * outside ASCII are folded: the table also maps `m` to `rn`, which is for comparing names, not reading words.
 */
let toAscii: Map<string, string> | undefined;
function asciiLookAlikes(): Map<string, string> {
  if (!toAscii) {
    toAscii = new Map();
    for (const [from, to] of Object.entries(confusables as Record<string, string>)) {
      const lower = to.toLowerCase();
      if (/[^\x00-\x7f]/.test(from) && [...from].length === 1 && /^[a-z0-9]+$/.test(lower)) toAscii.set(from, lower);
    }
  }
  return toAscii;
}
const NON_ASCII = /[^\x00-\x7f]/gu;

/** A look-alike's letters: its small form's first (Greek `Ι` reads `i`, not `l`), else its own (Cyrillic `К` → `k`). */
function foldLookAlike(c: string): string {
  const table = asciiLookAlikes();
  return table.get(c.toLowerCase()) ?? table.get(c) ?? c;
}

/**
 * A letter of an alphabet other than Latin that could stand in for a Latin one. Punctuation, symbols and the
 * ideographic and syllabic scripts (Han, kana, Hangul) have no letter to swap into a Latin word: `vue的` is two words.
 */
const SWAPPABLE_LETTER =
  /^(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}])\p{L}$/u;

/** A look-alike inside a word of plain letters (`ıgnore`, `сurl` with a Cyrillic с): a swap, not a foreign word. */
function mixesLookAlikes(text: string): boolean {
  for (const m of text.matchAll(NON_ASCII)) {
    if (!SWAPPABLE_LETTER.test(m[0]) || foldLookAlike(m[0]) === m[0]) continue;
    const at = m.index ?? 0;
    if (/[a-z]/i.test(text[at - 1] ?? '') || /[a-z]/i.test(text[at + m[0].length] ?? '')) return true;
  }
  return false;
}

/** `\u0063url`, `\x63url`, `&#99;url`: an escaped plain letter only hides a word. */
const LETTER_ESCAPE =
  /\\u\{?(00[2-7][0-9a-fA-F])\}?|\\x([2-7][0-9a-fA-F])|&#x(0*[2-7][0-9a-f]);|&#(0*(?:3[2-9]|[4-9]\d|1[01]\d|12[0-6]));/gi;
/** Empty shell quotes inside a word (`c""url`, `cu''rl`) run the same command. */
const QUOTE_SPLIT = /([a-z])(?:""|'')+(?=[a-z])/gi;

export interface NormalizedText {
  /** Case-folded, Markdown stripped, escapes undone, whitespace collapsed. */
  text: string;
  /** The original hid letters: invisible characters, escapes of plain letters, quotes inside a word, look-alikes. */
  obfuscated: boolean;
}

/** Undoes the cheap tricks (escapes, invisible characters, `c""url`, look-alike letters) and strips Markdown. */
export function normalizeRuleText(input: string): NormalizedText {
  INVISIBLE.lastIndex = 0;
  const obfuscated =
    INVISIBLE.test(input) ||
    LOOK_ALIKE_FORMS.test(input) ||
    mixesLookAlikes(input.normalize('NFKC')) ||
    new RegExp(LETTER_ESCAPE.source, 'i').test(input) ||
    new RegExp(QUOTE_SPLIT.source, 'i').test(input);
  const text = input
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(LETTER_ESCAPE, (_m, u, x, hex, dec) =>
      String.fromCharCode(u ? parseInt(u, 16) : x ? parseInt(x, 16) : hex ? parseInt(hex, 16) : Number(dec)),
    )
    .replace(NON_ASCII, foldLookAlike)
    .replace(QUOTE_SPLIT, '$1')
    // A backslash inside a word (`c\url`) is ignored by the shell; Windows paths lose nothing a screen needs.
    .replace(/([a-z])\\(?=[a-z])/gi, '$1')
    // Markdown: code spans and emphasis are presentation; a link keeps both its text and its address.
    .replace(/\[([^\]]*)\]\(([^)\s]*)[^)]*\)/g, '$1 $2')
    .replace(/`+|\*\*|~~|__/g, ' ')
    .replace(/<!--|-->/g, ' ')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return { text, obfuscated };
}

/** Letters spelled one by one (`c u r l`, `s.h`) joined back, for a second look at the text. */
export function joinSpelledWords(text: string): string {
  return text.replace(/\b(?:[a-z][ .-]){1,}[a-z]\b/g, (m) => m.replace(/[ .-]/g, ''));
}
