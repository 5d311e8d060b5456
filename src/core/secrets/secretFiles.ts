import { isLookAlike, looksRandom } from './entropy';
import { isPlaceholder } from './rule';

/**
 * Files whose values are secrets by their nature (`.env*`, keys, credentials, `.npmrc`, `.netrc`, `.pgpass`, SSH keys):
 * in text written to or read from one, every value that looks random is a secret, whatever its name, and is replaced
 * whole. Look-alikes are kept: UUIDs, git hashes, digests, names, hosts, versions, URLs and paths, and base64 of
 * ordinary text.
 */

export type SecretFileKind = 'pgpass' | 'netrc' | 'values';

export const SECRET_FILE_TAG = '[REDACTED:secret-file-value]';

const EXACT: Record<string, SecretFileKind> = {
  '.pgpass': 'pgpass',
  'pgpass.conf': 'pgpass',
  '.netrc': 'netrc',
  _netrc: 'netrc',
  '.npmrc': 'values',
  '.yarnrc': 'values',
  '.yarnrc.yml': 'values',
  '.pypirc': 'values',
  '.git-credentials': 'values',
  '.dockercfg': 'values',
  '.htpasswd': 'values',
  '.s3cfg': 'values',
  '.boto': 'values',
  '.envrc': 'values',
  kubeconfig: 'values',
};
/** `.env`, `.env.local`, `prod.env`; key and certificate stores. */
const BY_SHAPE = /^(?:\.env(?:\..+)?|.+\.env|.+\.(?:pem|key|p12|pfx|ppk|jks|keystore|tfvars|gpg))$/;
/** Names that say so (`credentials`, `client_secret.json`, `token.txt`, `id_ed25519`), unless they name source code or docs. */
const BY_WORD = /credential|secret|token|^id_(?!.*\.pub$)/;
const CODE_OR_DOCS =
  /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|m|vue|svelte|css|scss|html|md|mdx|rst|snap|map|lock|d\.ts)$/;

/** What kind of secret-bearing file `path` names, if it names one. */
export function secretFileKind(path: string): SecretFileKind | undefined {
  const parts = path.replace(/\\/g, '/').toLowerCase().split('/');
  const name = parts[parts.length - 1] ?? '';
  if (!name) return undefined;
  const exact = EXACT[name];
  if (exact) return exact;
  if (name === 'config' && parts[parts.length - 2] === '.kube') return 'values';
  if (BY_SHAPE.test(name)) return 'values';
  if (BY_WORD.test(name) && !CODE_OR_DOCS.test(name)) return 'values';
  return undefined;
}

/** One value-sized piece of text: JSON escapes and these characters end it. */
const PIECE = /[^\s"'`,;<>(){}[\]|\\]+/g;
const BASE64_TEXT = /^[A-Za-z0-9+/]{16,}={0,2}$/;

/** Base64 that decodes to ordinary words (a comment, a description), not to a credential. */
function encodesProse(value: string): boolean {
  if (!BASE64_TEXT.test(value) || value.length % 4 !== 0) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  if (/[^\x20-\x7e\t\r\n]/.test(decoded)) return false;
  const words = decoded.split(/\s+/).filter((w) => /^[A-Za-z][a-z]*[.,:;!?]?$/.test(w));
  return words.length >= 3 && words.join('').length >= decoded.replace(/\s/g, '').length * 0.6;
}

/** Where the value starts in a piece: after `NAME=` or `NAME:` (not a trailing `=` of base64 padding). */
function valueOffset(piece: string): number {
  const eq = piece.indexOf('=');
  if (eq > 0 && !/^=+$/.test(piece.slice(eq))) return eq + 1;
  const colon = piece.indexOf(':');
  return colon > 0 && colon < piece.length - 1 ? colon + 1 : 0;
}

/** Spans of the values of a secret-bearing file's text (already redacted by the rules: their tags are kept). */
export function secretFileSpans(text: string, kind: SecretFileKind): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const take = (start: number, value: string) => {
    if (value && !value.startsWith('REDACTED') && !isPlaceholder(value)) spans.push([start, start + value.length]);
  };
  if (kind === 'pgpass')
    // host:port:database:user:password, one a line (also inside JSON-escaped text)
    for (const m of text.matchAll(/(^|\n|\\n)((?:[^:\n\\]*:){4})([^\n\\]+)/g))
      take(m.index + m[1].length + m[2].length, m[3]);
  if (kind === 'netrc')
    for (const m of text.matchAll(/(\bpassword[ \t]+)([^\s\\]+)/g)) take(m.index + m[1].length, m[2]);
  // a .pgpass line is host:port:database:user:password; only the password is a secret
  if (kind === 'pgpass') return merged(spans);
  for (const m of text.matchAll(PIECE)) {
    let start = m.index;
    let piece = m[0];
    // the letter of a JSON escape (`\n`, `\t`, `\u0022`) is not part of a value
    if (text[start - 1] === '\\') {
      const skip = /^u[0-9a-fA-F]{4}/.test(piece) ? 5 : /^[nrtbf/]/.test(piece) ? 1 : 0;
      start += skip;
      piece = piece.slice(skip);
    }
    if (piece.length < 8 || isLookAlike(piece)) continue;
    const offset = valueOffset(piece);
    const value = piece.slice(offset).replace(/[.:]+$/, '');
    if (!looksRandom(value) || encodesProse(value)) continue;
    spans.push([start + offset, start + offset + value.length]);
  }
  return merged(spans);
}

function merged(spans: Array<[number, number]>): Array<[number, number]> {
  spans.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s[0] < last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}
