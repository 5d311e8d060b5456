import { applyFinds, findSecrets, type ExtraFinder, type Found } from '../secrets/engine';
import { tag } from '../secrets/rule';
import { compileUserPatterns, findUserPatterns } from '../secrets/userPatterns';

/**
 * Secrets removed from every trace before it is stored or shown to any model: the built-in rules (`src/core/secrets`:
 * provider shapes, private keys, JWTs, URL credentials, headers, assignments), the user's patterns (RE2, linear time),
 * and the same again inside base64 and %-encoded text. Home folders are shown as `~`.
 */

// The Unix one is tried only where the scan saw `/home/` or `/users/`; the Windows one runs on texts with a `:\`.
const UNIX_HOME_PATH = /(?:\/home\/|\/Users\/)[A-Za-z0-9._-]+/y;
const WINDOWS_HOME_PATH = /\b[A-Za-z]:\\(?:\\)?Users\\(?:\\)?([A-Za-z0-9._ -]+?)(?=\\|$|["'\s])/g;
const CUSTOM_TAG = tag('custom');
/** Encodings inside encodings are decoded this deep. */
const MAX_DEPTH = 2;

export interface Redactor {
  /** Returns the redacted text; `count` grows by the number of secrets removed. */
  redact(text: string): string;
  readonly count: number;
}

export interface RedactionOptions {
  /** Extra user patterns (RE2 syntax, a subset of JavaScript's) from settings. Invalid ones are reported, not thrown. */
  extraPatterns?: string[];
  /** Show home folders as `~` (default on). */
  homePaths?: boolean;
}

export function createRedactor(
  options: RedactionOptions = {},
  onInvalidPattern: (source: string, error: string) => void = () => {},
): Redactor {
  const patterns = compileUserPatterns(options.extraPatterns ?? [], onInvalidPattern);
  const extra: ExtraFinder | undefined =
    patterns.length === 0
      ? undefined
      : (text, found) => findUserPatterns(text, patterns, (s, e) => found(s, e, CUSTOM_TAG));
  const homePaths = options.homePaths ?? true;
  const holdsSecret =
    (depth: number) =>
    (decoded: string): boolean =>
      findSecrets(decoded, extra, depth < MAX_DEPTH ? holdsSecret(depth + 1) : undefined).finds.length > 0;
  const decodedHoldsSecret = holdsSecret(1);
  let count = 0;
  return {
    get count() {
      return count;
    },
    redact(text: string): string {
      if (!text) return text;
      const { finds, homeFolders } = findSecrets(text, extra, decodedHoldsSecret);
      count += finds.length;
      // the keyword scan also tells where home folders may be named
      const withHomes = homePaths && homeFolders.unix.length > 0 ? withUnixHomes(text, finds, homeFolders.unix) : finds;
      let out = applyFinds(text, withHomes);
      if (homePaths && homeFolders.windows) out = out.replace(WINDOWS_HOME_PATH, '~');
      return out;
    },
  };
}

/**
 * `finds` (sorted, apart) with the Unix home paths at `offsets` added as `~`: what replacing them in the redacted text
 * would do. A path that a secret starts inside ends there; one in or under a secret is the secret's.
 */
function withUnixHomes(text: string, finds: readonly Found[], offsets: readonly number[]): Found[] {
  const out: Found[] = [];
  let next = 0;
  let f = 0;
  for (const at of offsets) {
    if (at < next) continue;
    UNIX_HOME_PATH.lastIndex = at;
    if (!UNIX_HOME_PATH.test(text)) continue;
    let end = UNIX_HOME_PATH.lastIndex;
    for (; f < finds.length && finds[f].end <= at; f++) out.push(finds[f]);
    const secret = finds[f];
    if (secret && secret.start < end) {
      // a home path is longer than its `/home/` or `/Users/`
      if (secret.start <= at + (text.startsWith('/home/', at) ? 6 : 7)) continue;
      end = secret.start;
    }
    out.push({ start: at, end, matchStart: at, matchEnd: end, replacement: '~' });
    next = end;
  }
  for (; f < finds.length; f++) out.push(finds[f]);
  return out;
}

const builtIn = createRedactor({ homePaths: false });

/**
 * The built-in rules alone, the last line of defence at each sink (model requests, CLI output, logs, run records,
 * proposals): text from traces is redacted already, so this finds nothing there and costs one keyword scan.
 */
export function redactText(text: string): string {
  return builtIn.redact(text);
}
