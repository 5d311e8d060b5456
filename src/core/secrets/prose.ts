import { looksRandom } from './entropy';
import { ci, isCodeExpression, type SecretRule } from './rule';

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
    if (isCodeExpression(m[4]) || !looksRandom(value, stated)) return undefined;
    const start = m[0].length - m[4].length;
    return [start, start + value.length];
  },
  anchored: true,
};

export const PROSE_RULES: SecretRule[] = [PROSE];
