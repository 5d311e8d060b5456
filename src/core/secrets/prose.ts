import { looksRandom } from './entropy';
import { ci, isCodeExpression, type SecretRule } from './rule';

/**
 * Secrets named in words rather than assigned: "the password for prod is X because …", "use the token X", "API key:
 * X" in a chat message or a commit message. Only a value that looks like a secret is taken ("the token is expired" is
 * not); with a verb ("is", "was", `=`, `:`) the bar is lower than without one. The words after the name are read one
 * by one (a pattern could only try one reading of them): what it is for, then the verb, then the value.
 */

const PROSE_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'token',
  'secret',
  'api key',
  'access key',
  'secret key',
  'account key',
  'storage key',
];
/** The spellings the keyword scan looks for (`api key`, `api-key`, `apikey`…). */
const PROSE_KEYWORDS = PROSE_WORDS.flatMap((w) =>
  w.includes(' ') ? [w, w.replace(' ', '-'), w.replace(' ', '_'), w.replace(' ', '')] : [w],
);
/** How far after the name the sentence is read. */
const TAIL = 240;
/** "the password for the staging db is …": up to three words say what it is for. */
const FOR_WORDS = new Set(['for', 'of', 'on', 'to', 'in']);
const MAX_FOR_WORDS = 3;
const LINK_WORDS = new Set(['is', 'was', 'are', 'becomes', '=', ':', '=>', '->']);
const ADVERBS = new Set(['now', 'still']);
/** A value: no space, quote, backtick, angle bracket or backslash (quotes and punctuation before it are skipped). */
const VALUE = /^(?:\\{0,3}[`"'])?[,;.(]*([^\s`"'<>\\]{6,300})/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

interface Word {
  text: string;
  at: number;
}

function wordsOf(tail: string): Word[] {
  return [...tail.matchAll(/\S+/g)].map((m) => ({ text: m[0], at: m.index }));
}

/** A link glued to the name (`password:` `token=`): the value starts after it. */
function gluedLink(word: Word): Word | undefined {
  const m = /^(=>|->|:=|=|:)/.exec(word.text);
  if (!m) return undefined;
  const rest = word.text.slice(m[0].length);
  return rest ? { text: rest, at: word.at + m[0].length } : undefined;
}

/** [start, end) of the value in the tail, if the word holds one. */
function valueAt(word: Word | undefined, stated: boolean): [number, number] | undefined {
  if (!word) return undefined;
  const m = VALUE.exec(word.text);
  if (!m) return undefined;
  // sentence punctuation after the value is not part of it
  const value = m[1].replace(/[.,;:!?)]+$/, '');
  if (isCodeExpression(m[1])) return undefined;
  // a stated key may be a UUID (Heroku's legacy keys); unstated, a UUID is an id
  if (!looksRandom(value, stated) && !(stated && UUID.test(value))) return undefined;
  const start = word.at + m[0].length - m[1].length;
  return [start, start + value.length];
}

/** The value a sentence gives the name, read from the words after it. */
function proseValue(tail: string): [number, number] | undefined {
  const glued = /^[ \t]*(=>|->|=|:)/.exec(tail);
  const words = wordsOf(tail);
  if (words.length === 0) return undefined;
  // "API key: X", "token=X", "password:X"
  if (glued) {
    const first = words[0];
    const rest = gluedLink(first);
    const afterLink = rest ?? words[1];
    const skip = afterLink && ADVERBS.has(afterLink.text.toLowerCase()) ? words[rest ? 1 : 2] : afterLink;
    return valueAt(skip, true);
  }
  // "… for the staging db is X": what it is for, then the verb
  let i = 0;
  if (FOR_WORDS.has(words[0].text.toLowerCase())) {
    for (let n = 1; n <= MAX_FOR_WORDS && n < words.length; n++) {
      const link = words[n + 1];
      if (link && LINK_WORDS.has(link.text.toLowerCase())) {
        i = n + 1;
        break;
      }
    }
    if (i === 0) return undefined;
  }
  if (LINK_WORDS.has(words[i].text.toLowerCase())) {
    let v = i + 1;
    if (words[v] && ADVERBS.has(words[v].text.toLowerCase())) v++;
    return valueAt(words[v], true);
  }
  // "use the token X": no verb, so the value must look random by itself
  return i === 0 ? valueAt(words[0], false) : undefined;
}

const PROSE: SecretRule = {
  id: 'secret-in-prose',
  provider: 'Secrets named in prose',
  keywords: PROSE_KEYWORDS,
  // the tail is looked at, not taken: a second name in it is tried on its own
  pattern: new RegExp(
    `(?:${PROSE_WORDS.map((w) => ci(w).replace(' ', '[ _-]?')).join('|')})[sS]?(?![A-Za-z0-9_])(?=([^\\r\\n]{0,${TAIL}}))`,
    'g',
  ),
  locate: (m) => {
    const found = proseValue(m[1]);
    return found && [m[0].length + found[0], m[0].length + found[1]];
  },
  anchored: true,
};

export const PROSE_RULES: SecretRule[] = [PROSE];
