import { isPlaceholder } from './rule';

/**
 * Whether a bare value looks like a secret by its make-up alone: long and random (Shannon entropy), or short with
 * many kinds of characters. Names, slugs, hosts, versions, camelCase identifiers, UUIDs, git hashes and digests
 * are not, whatever their length.
 */

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const GIT_HASH = /^[0-9a-f]{40}$/;
const DIGEST = /^(?:sha1|sha224|sha256|sha384|sha512|md5)[-:~]/i;
/** lower-case words (each maybe numbered) joined by `-_.`: slugs, hosts, file names; or an UPPER_SNAKE name */
const WORDS = /^(?:[a-z]+[0-9]*(?:[-_.](?:[a-z]+[0-9]*|[0-9]+))*|[A-Z]+[0-9]*(?:_(?:[A-Z]+[0-9]*|[0-9]+))*)$/;
/** camelCase or PascalCase, digits only as whole groups */
const CAMEL = /^[A-Za-z][a-z]*(?:[A-Z][a-z]+|[0-9]+)*[A-Z]?$/;
const VERSION = /^v?\d+(?:\.\d+)+(?:[-+][0-9A-Za-z.]+)?$/;
const TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
/** A relative path or resource name whose every part is a word (`projects/123/secrets/db/versions/latest`, `.claude/settings.json`, `docs/SETUP.md`). */
const PATH_WORD = '(?:[a-z]+[0-9]*|[A-Z][a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+)';
const PATH_PART = `\\.?${PATH_WORD}(?:[-_.]${PATH_WORD})*`;
const WORD_PATH = new RegExp(`^${PATH_PART}(?:\\/${PATH_PART})+\\/?$`);

export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Kinds of characters: lower, upper, digit, other (the word joiners `-_.` do not count). */
function characterKinds(value: string): number {
  let kinds = 0;
  if (/[a-z]/.test(value)) kinds++;
  if (/[A-Z]/.test(value)) kinds++;
  if (/[0-9]/.test(value)) kinds++;
  if (/[^A-Za-z0-9_.-]/.test(value)) kinds++;
  return kinds;
}

/** A value no one would take for a secret whatever its context. */
export function isLookAlike(value: string): boolean {
  return (
    UUID.test(value) ||
    GIT_HASH.test(value) ||
    DIGEST.test(value) ||
    WORDS.test(value) ||
    CAMEL.test(value) ||
    VERSION.test(value) ||
    TIME.test(value) ||
    EMAIL.test(value) ||
    WORD_PATH.test(value) ||
    value.includes('://') ||
    /^(?:\/|\.\.?\/|~\/)/.test(value) ||
    isPlaceholder(value)
  );
}

/**
 * A random-looking value: 20+ characters of entropy ≥ 3.5 bits a character and two kinds of characters, or 8+ with
 * three kinds and entropy ≥ 2.8. `lenient` (the text says it is a secret: "the password is …"): 6+ characters with a
 * digit, an inner capital or a symbol.
 */
export function looksRandom(value: string, lenient = false): boolean {
  if (value.length < (lenient ? 6 : 8) || value.length > 4096 || isLookAlike(value)) return false;
  const kinds = characterKinds(value);
  if (lenient) return kinds >= 2 || /\d/.test(value);
  const h = shannonEntropy(value);
  if (value.length >= 20) return kinds >= 2 && h >= 3.5;
  return kinds >= 3 && h >= 2.8;
}
