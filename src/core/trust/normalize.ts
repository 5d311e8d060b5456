// Rule text as a screen should read it: what an agent would execute or obey, not how it was spelled.

/** Zero-width and bidirectional control characters: invisible, so a reader cannot see what they split. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]/g;
/** Full-width and mathematical letters: look like ASCII, are not (NFKC folds them). */
const LOOK_ALIKE_FORMS = /[\uff01-\uff5e]|[\u{1d400}-\u{1d7ff}]/u;
/** A Latin letter next to a Cyrillic or Greek one inside a word: a homoglyph swap (`сurl` with a Cyrillic с). */
const MIXED_SCRIPT = /[a-z][\u0370-\u03ff\u0400-\u04ff]|[\u0370-\u03ff\u0400-\u04ff][a-z]/i;
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  с: 'c',
  е: 'e',
  о: 'o',
  р: 'p',
  х: 'x',
  у: 'y',
  і: 'i',
  ѕ: 's',
  ј: 'j',
  ο: 'o',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};
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
    MIXED_SCRIPT.test(input) ||
    new RegExp(LETTER_ESCAPE.source, 'i').test(input) ||
    new RegExp(QUOTE_SPLIT.source, 'i').test(input);
  const text = input
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(LETTER_ESCAPE, (_m, u, x, hex, dec) =>
      String.fromCharCode(u ? parseInt(u, 16) : x ? parseInt(x, 16) : hex ? parseInt(hex, 16) : Number(dec)),
    )
    .replace(/[\u0370-\u03ff\u0400-\u04ff]/g, (c) => HOMOGLYPHS[c.toLowerCase()] ?? c)
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
