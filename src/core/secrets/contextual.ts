import { looksRandom } from './entropy';
import { afterGroup, ci, isChosenPhrase, isNameLike, isPlaceholder, type SecretRule } from './rule';

/**
 * Secrets known by where they stand rather than by their shape: assigned to a name that says so (`.env`, shell,
 * JSON, YAML, TOML, connection strings, command-line flags), sent in an `Authorization` header, or written into a URL.
 * Names may be JSON-escaped (`\"password\": \"…\"`); the value's own quotes are kept.
 */

/**
 * Words that end a name whose value is a secret (`DB_PASSWORD`, `apiToken`, `client_secret`, `AccountKey`); the name
 * ends there (`MAX_TOKENS`, `TOKENIZER` do not), or goes on after `_`, `.` or `-` and the value must look random (see
 * `assignedValue`). The match starts at the word, so the rule is tried only where the keyword scan found one.
 */
const NAME_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'token',
  'credentials',
  'credential',
  'key',
  'private_key_id',
];
/** A name ending in `key` is a secret's only after one of these (`api_key`, `secretKey`, `AccountKey`) or in `UPPER_KEY`. */
const KEY_PREFIX = new RegExp(
  `(?:${['api', 'secret', 'access', 'private', 'encryption', 'signing', 'master', 'auth', 'license', 'client', 'app', 'account', 'shared_?access', 'consumer', 'webhook', 'session', 'service', 'subscription', 'admin', 'deploy', 'ssh', 'jwt', 'oauth'].join('|')})[_.-]?$`,
  'i',
);
const UPPER_KEY_PREFIX = /[A-Z0-9]_$/;
/**
 * Up to three backslashes before a quote: a value inside JSON inside JSON. A single-quoted value may open with the
 * shell's `'\''` (a quote inside a single-quoted argument: `bash -c 'TOKEN='\''…'\'''`).
 */
const QUOTE = `(?:\\\\{0,3}["'])`;
const BARE = `[^\\s"'\`\\\\,;<>(){}\\[\\]|&]{3,300}`;
const QUOTED_DOUBLE = `[^"\\\\\\r\\n]{1,300}`;
const QUOTED_SINGLE = `[^'\\\\\\r\\n]{1,300}`;

/**
 * Secret of an assignment: group 1 is the context, 2 what follows the word in a longer name (`SECRET_KEY_BASE`,
 * `GITHUB_TOKEN_RO`), then a double-quoted (3), single-quoted (4) or bare (5) value. After a longer name the value
 * must look random (`TOKEN_URL=https://…`, `CACHE_KEY_PREFIX=myapp`, `MAX_TOKENS=4096` are none).
 */
function assignedValue(m: RegExpExecArray, text: string): [number, number] | undefined {
  if (m[1].length >= 3 && /^key/i.test(m[1])) {
    const before = text.slice(Math.max(0, m.index - 16), m.index);
    if (!(m[1].startsWith('KEY') && UPPER_KEY_PREFIX.test(before)) && !KEY_PREFIX.test(before)) return undefined;
  }
  const value = m[3] ?? m[4] ?? m[5];
  if (value === undefined) return undefined;
  const end = m.index + m[0].length;
  // a bare value followed by `(` or `[` is code (`token = getToken()`), not a literal; a cut's marker (`[... `) is no code
  if (m[5] !== undefined && (text[end] === '(' || (text[end] === '[' && !text.startsWith('[... ', end))))
    return undefined;
  if (isPlaceholder(value.trim())) return undefined;
  // a quoted phrase of words is a chosen passphrase; a bare one is a name
  if (isNameLike(value) && !(m[5] === undefined && isChosenPhrase(value))) return undefined;
  if (m[2] !== undefined && !looksRandom(value)) return undefined;
  // the value ends the match (a closing quote is not part of it)
  const tail = m[5] === undefined ? 0 : semicolonTail(text, end);
  return [m[0].length - value.length, m[0].length + tail];
}

const ENDS_BARE_SEGMENT = /[\s"'`\\,;<>(){}[\]|&=]/;

/**
 * How far a bare value goes on past `;` (`PASSWORD=ab;cd`): each `;segment` that ends at a space, a quote or the end
 * of the text is part of it. A segment that ends in `=` starts the next key of a connection string
 * (`Password=x;Database=y`) and one that ends in `(` is code, so neither is.
 */
function semicolonTail(text: string, end: number): number {
  let at = end;
  while (text[at] === ';') {
    let q = at + 1;
    while (q < text.length && !ENDS_BARE_SEGMENT.test(text[q])) q++;
    const stop = text[q];
    if (q === at + 1 || (stop !== undefined && !/[\s"'`;]/.test(stop))) break;
    at = q;
  }
  return at - end;
}

const ASSIGNMENT: SecretRule = {
  id: 'secret-assignment',
  provider: 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)',
  keywords: NAME_WORDS,
  pattern: new RegExp(
    `((?:${NAME_WORDS.map(ci).join('|')})(?:([_.-][A-Za-z0-9_.-]{1,24})|(?![A-Za-z0-9_]))${QUOTE}?[ \\t]{0,8}(?::=|=>|=|:)[ \\t]{0,8})(?:\\\\{0,3}"(${QUOTED_DOUBLE})|(?:'\\\\')?'(${QUOTED_SINGLE})|(${BARE}))`,
    'g',
  ),
  locate: assignedValue,
  boundary: false,
  anchored: true,
};

/** Docker's `config.json`: `"auth": "<base64 of user:password>"`. */
const DOCKER_AUTH: SecretRule = {
  id: 'secret-assignment',
  provider: 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)',
  keywords: ['auth\\"', 'auth"'],
  pattern: /(auth\\{0,3}"[ \t]*:[ \t]*\\{0,3}")([A-Za-z0-9+/]{8,}={0,2})/g,
  locate: afterGroup,
  anchored: true,
};

const FLAG_NAMES = [
  'password',
  'passwd',
  'token',
  'secret',
  'api-key',
  'apikey',
  'auth-token',
  'access-key',
  'account-key',
  'secret-key',
  'client-secret',
  'private-key',
];
/** `--password hunter2`, `--token=…` (the `=` form is an assignment too). */
const FLAG: SecretRule = {
  id: 'secret-flag',
  provider: 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)',
  keywords: ['--'],
  pattern: new RegExp(
    `(--(?=[A-Za-z])[A-Za-z0-9-]{0,40}?(?:${FLAG_NAMES.map(ci).join('|')})(?![A-Za-z0-9_-])[ \\t]+${QUOTE}?)([^\\s"'\`\\\\-][^\\s"'\`\\\\]{2,300})`,
    'g',
  ),
  locate: (m) => (isPlaceholder(m[2]) ? undefined : afterGroup(m)),
  boundary: false,
  anchored: true,
};

/** `mysql -u root -phunter2` (the password glued to -p). */
const MYSQL_FLAG: SecretRule = {
  id: 'mysql-password',
  provider: 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)',
  keywords: ['mysql', 'mariadb'],
  pattern: /((?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n\r"\\]{0,200}?\s-p)([^\s"'\\-][^\s"'\\]{2,200})/g,
  locate: afterGroup,
  boundary: false,
  anchored: true,
};

/** `<password>…</password>` in XML configs (Maven settings, NuGet.config). */
const XML_ELEMENT: SecretRule = {
  id: 'secret-assignment',
  provider: 'Assignments (.env, shell, JSON, YAML, TOML, connection strings, flags)',
  keywords: ['password>', 'secret>', 'token>', 'apikey>'],
  pattern: new RegExp(
    `(<(?:${['password', 'secret', 'token', 'apikey', 'api_key'].map(ci).join('|')})>)([^<\\s]{3,300})(?=</)`,
    'g',
  ),
  locate: afterGroup,
  boundary: false,
  anchored: false,
};

const SCHEMES = [
  'bearer',
  'basic',
  'token',
  'bot',
  'digest',
  'negotiate',
  'ntlm',
  'hmac',
  'apikey',
  'sso-key',
  'key',
  'aws4-hmac-sha256',
  'gostack',
];
/** `Authorization: <scheme> <credentials>` in HTTP dumps, curl `-H`, JSON headers; the scheme is kept. */
const AUTHORIZATION: SecretRule = {
  id: 'authorization-header',
  provider: 'Authorization headers',
  keywords: ['authorization'],
  pattern: new RegExp(
    `(${ci('authorization')}${QUOTE}?[ \\t]*[:=][ \\t]*${QUOTE}?(?:(?:${SCHEMES.map(ci).join('|')})[ \\t]+)?)([^\\s"'\\\\,;][^\\r\\n"'\\\\]{3,2000})`,
    'g',
  ),
  locate: (m) => {
    const value = m[2].trimEnd();
    if (isPlaceholder(value) || new RegExp(`^(?:${SCHEMES.join('|')})$`, 'i').test(value)) return undefined;
    return [m[1].length, m[1].length + value.length];
  },
  boundary: false,
  anchored: true,
};

/** A bearer token outside a header (`-H "Bearer …"`, `token_type: Bearer` does not match: too short). */
const BEARER: SecretRule = {
  id: 'bearer-token',
  provider: 'Authorization headers',
  keywords: ['bearer'],
  pattern: new RegExp(`(${ci('bearer')}[ \\t]+)([A-Za-z0-9._~+/-]{16,}=*)`, 'g'),
  locate: afterGroup,
  anchored: true,
};

/** `scheme://user:password@host` for any scheme, the user possibly empty (`redis://:pw@`), the password %-encoded. */
const URL_CREDENTIALS: SecretRule = {
  id: 'url-credentials',
  provider: 'Credentials in URLs',
  keywords: ['://'],
  // the match starts at `://`: the scheme before it is kept whatever it is
  pattern: /(:\/\/)([^\s/:@'"`\\[\]<>]{0,200}:[^\s/@'"`\\[\]<>]{1,300})@(?=[A-Za-z0-9[.-])/g,
  locate: (m) => {
    const password = m[2].slice(m[2].indexOf(':') + 1);
    if (isPlaceholder(password) && !/^\d+$/.test(password)) return undefined;
    return afterGroup(m);
  },
  boundary: false,
  anchored: true,
};

export const CONTEXT_RULES: SecretRule[] = [
  AUTHORIZATION,
  URL_CREDENTIALS,
  ASSIGNMENT,
  DOCKER_AUTH,
  FLAG,
  MYSQL_FLAG,
  XML_ELEMENT,
  BEARER,
];
