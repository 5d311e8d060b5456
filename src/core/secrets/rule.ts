/**
 * One secret shape. `keywords` (lowercase) are the pre-filter: the rule runs on a text only when one of them occurs
 * in it (gitleaks' approach), so adding rules does not add passes over every text.
 */
export interface SecretRule {
  /** Tag left in place of the secret: `[REDACTED:<id>]`. */
  id: string;
  /** Provider or category, for the README's count. */
  provider: string;
  keywords: string[];
  /** Global regular expression; see `locate` for which part of a match is the secret. */
  pattern: RegExp;
  /**
   * Where the secret lies in a match, relative to its start (context before and after it is kept), or undefined to
   * keep the match (a placeholder, a look-alike). Default: the whole match.
   */
  locate?: (match: RegExpExecArray, text: string) => [number, number] | undefined;
  /** The match must start at a token boundary (default true; see `startsToken`). */
  boundary?: boolean;
  /**
   * Every match starts where one of the keywords does: the pattern is tried only at those places (sticky), never
   * over the whole text. Otherwise it runs over the whole text, and only when a keyword occurs.
   */
  anchored?: boolean;
  /** For an anchored rule whose keyword ends a fixed-length start (`<32 hex>-us1`): that length, tried before the keyword. */
  back?: number;
}

export const tag = (id: string): string => `[REDACTED:${id}]`;

/** A case-insensitive spelling of a literal, for patterns whose other parts are case-sensitive (no `(?i:)` in Node 20). */
export function ci(word: string): string {
  return word.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

const WORD = /[A-Za-z0-9_]/;
const HEX = /[0-9A-Fa-f]/;

/**
 * Whether a token may start at `index`: after a non-word character, or after a JSON escape (`\n`, `\t`, `\u0022`…),
 * so a token inside a JSON-encoded string (`…\nexport TOKEN=…`) is still found where `\b` would fail.
 */
export function startsToken(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text.charCodeAt(index - 1);
  if (!WORD.test(text[index - 1])) return true;
  if (index >= 2 && text[index - 2] === '\\' && 'nrtbf'.includes(String.fromCharCode(before))) return true;
  if (index >= 6 && text[index - 6] === '\\' && text[index - 5] === 'u') {
    for (let i = index - 4; i < index; i++) if (!HEX.test(text[i])) return false;
    return true;
  }
  return false;
}

/** Groups `(context)(secret)`: the secret is group 2 right after group 1. */
export function afterGroup(m: RegExpExecArray): [number, number] {
  return [m[1].length, m[1].length + m[2].length];
}

const PLACEHOLDER = [
  /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/, // $VAR, ${VAR}
  /\$\{|\$\(|\{\{|%\(|<%/, // templates and command substitution: `$(pass show gpg)`
  /^<[^>]*>$/, // <your-token>
  /^\[REDACTED/,
  /^(?:x+|\*+|\.+|_+|-+|#+|•+)$/i,
  /^(?:true|false|null|nil|none|undefined|yes|no|on|off|required|optional|string|str|number|int|integer|bool|boolean|any|unknown|object|bytes|empty|redacted|hidden|masked|await|new|this|self|function|lambda|return|input|getpass|prompt|env|process|os|config|options|args|kwargs|params|request|req)$/i,
  /^\d{1,6}$/, // limits, ports, counts
  /^[a-z]+(?:_[a-z]+)+$/, // a snake_case identifier
  /^https?:\/\//, // a URL (credentials in URLs have their own rule)
];

const DOTTED = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const PATH = /^(?:\/|~\/|\.\.?\/)/;

/**
 * Member access (`process.env.TOKEN`, `self.password`): each part a name. A dotted value with a random part
 * (`sk.<random>`, a Discord token) is a value.
 */
function isMemberAccess(value: string): boolean {
  return DOTTED.test(value) && value.split('.').every((part) => isNameLike(part.replace(/^[_$]+|\d+$/g, '')));
}

/** A run a path's part would not have: long, with upper and lower case and digits (`/k3J…`, a base64 key's start). */
const RANDOM_RUN = /(?=[^/]*[A-Z])(?=[^/]*[a-z])(?=[^/]*\d)[^/]{16,}/;

/** A path (`/etc/app/token`, `./secrets/db.pem`), not a base64 key that happens to start with `/`. */
function isPath(value: string): boolean {
  return PATH.test(value) && !/[+=]/.test(value) && !value.split('/').some((part) => RANDOM_RUN.test(part));
}

/** Values of `key = value` shapes that are no secret: placeholders, types, code, small numbers. */
export function isPlaceholder(value: string): boolean {
  for (const p of PLACEHOLDER) if (p.test(value)) return true;
  return isMemberAccess(value) || isPath(value);
}

/** A call or an index (`formData.get(`, `os.environ[`): code that reads a value, not a value. */
const CODE_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*\??\.?[([]/;

export function isCodeExpression(value: string): boolean {
  return CODE_EXPRESSION.test(value);
}

/** Words of letters (`done`, `MISSING`, `your-test-password`, `passwordValue`): an identifier or a word, no secret. */
const NAME_PART = '(?:[a-z]+|[A-Z][a-z]+|[A-Z]+)(?:[A-Z][a-z]{2,})*';
const NAME_LIKE = new RegExp(`^${NAME_PART}(?:[-_.]${NAME_PART})*$`);

/**
 * A value made of words alone is a name (an identifier in code, a status in YAML), not a secret; a chosen password
 * has a digit or a symbol (`hunter2`), a generated one is random (mixed case with no word shape).
 */
export function isNameLike(value: string): boolean {
  return NAME_LIKE.test(value);
}

/** Words that make a phrase a placeholder or a name rather than a chosen passphrase. */
const PLACEHOLDER_WORDS = new Set(
  'your my the test example sample dummy fake placeholder changeme change me password passwd passphrase pass secret token key api value here todo none missing unset default demo local dev foo bar baz xxx redacted'.split(
    ' ',
  ),
);

/**
 * A quoted phrase of two or more words none of which is a placeholder's (`"orbit-lantern-cactus-velvet"`): a chosen
 * passphrase, where an unquoted name-like value is an identifier and `"your-test-password"` a placeholder.
 */
export function isChosenPhrase(value: string): boolean {
  const words = value.split(/[-_. ]+/).filter(Boolean);
  return words.length >= 2 && words.every((w) => /^[A-Za-z]+$/.test(w) && !PLACEHOLDER_WORDS.has(w.toLowerCase()));
}
