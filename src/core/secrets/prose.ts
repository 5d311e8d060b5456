import { looksRandom } from './entropy';
import { ci, type SecretRule } from './rule';

/**
 * Secrets named in words rather than assigned: "the password for prod is X", "use the token X", "API key: X" in a
 * chat message or a commit message. Only a value that looks like a secret is taken ("the token is expired" is not);
 * with a verb ("is", "was", `=`, `:`) the bar is lower than without one.
 */

const PROSE_WORDS = ['password', 'passwd', 'passphrase', 'token', 'secret', 'api key', 'access key', 'secret key'];
/** The spellings the keyword scan looks for (`api key`, `api-key`, `apikey`…). */
const PROSE_KEYWORDS = PROSE_WORDS.flatMap((w) =>
  w.includes(' ') ? [w, w.replace(' ', '-'), w.replace(' ', '_'), w.replace(' ', '')] : [w],
);
/** The sentence may name what the secret is for: "the password for the staging db is …" (up to three words). */
const FOR_WHAT = `(?:[ \\t]+(?:for|of|on|to)(?:[ \\t]+[^\\s:=\`"']{1,40}){1,3})?`;
const LINK = `(?:[ \\t]+(${['is', 'was', 'are', 'becomes'].map(ci).join('|')})[ \\t]+|[ \\t]*(=>|->|=|:)[ \\t]*|[ \\t]+)`;

const PROSE: SecretRule = {
  id: 'secret-in-prose',
  provider: 'Secrets named in prose',
  keywords: PROSE_KEYWORDS,
  pattern: new RegExp(
    `((?:${PROSE_WORDS.map((w) => ci(w).replace(' ', '[ _-]?')).join('|')})[sS]?(?![A-Za-z0-9_])${FOR_WHAT}${LINK}(?:${ci('now')}[ \\t]+|${ci('still')}[ \\t]+)?(?:\\\\{0,3}[\`"'])?)([^\\s\`"'<>\\\\]{6,300})`,
    'g',
  ),
  locate: (m) => {
    // sentence punctuation after the value is not part of it
    const value = m[4].replace(/[.,;:!?)]+$/, '');
    const stated = m[2] !== undefined || m[3] !== undefined;
    if (!looksRandom(value, stated)) return undefined;
    const start = m[0].length - m[4].length;
    return [start, start + value.length];
  },
  anchored: true,
};

/**
 * A secret's name followed by more of a name (`SECRET_KEY_BASE=`, `GITHUB_TOKEN_RO=`, `DB_PASSWORD_PROD:`): the
 * assignment rule wants the name to end at the word (`MAX_TOKENS`, `CACHE_KEY_PREFIX` are none), so here the value
 * must look random.
 */
const SUFFIXED_WORDS = ['password', 'passwd', 'secret', 'token', 'key'];
const SUFFIXED_NAME: SecretRule = {
  id: 'secret-assignment',
  provider: 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)',
  keywords: SUFFIXED_WORDS,
  pattern: new RegExp(
    `((?:${SUFFIXED_WORDS.map(ci).join('|')})[_.-][A-Za-z0-9_.-]{1,24}(?:\\\\?["'])?[ \\t]{0,4}(?::=|=|:)[ \\t]{0,4}(?:\\\\{0,3}["'])?)([^\\s"'\`\\\\,;<>(){}\\[\\]|&]{8,300})`,
    'g',
  ),
  locate: (m, text) => {
    // `key_…` only after a word that makes it a secret's (`SECRET_KEY_BASE`, `API_KEY_2`), as the assignment rule asks
    if (
      /^key/i.test(m[1]) &&
      !/(?:secret|api|private|access|signing|encryption|master|auth)[_.-]?$/i.test(
        text.slice(Math.max(0, m.index - 16), m.index),
      )
    )
      return undefined;
    return looksRandom(m[2]) ? [m[1].length, m[1].length + m[2].length] : undefined;
  },
  boundary: false,
  anchored: true,
};

export const PROSE_RULES: SecretRule[] = [PROSE, SUFFIXED_NAME];
