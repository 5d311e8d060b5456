import { applyFinds, findSecrets, type ExtraFinder, type Found } from '../secrets/engine';
import { tag } from '../secrets/rule';
import { SECRET_FILE_TAG, secretFileSpans, type SecretFileKind } from '../secrets/secretFiles';
import { compileUserPatterns, findUserPatterns } from '../secrets/userPatterns';
import { hideHomesInCommand, UNIX_HOME_PATH, WINDOWS_HOME_PATH } from './homePaths';

/**
 * Secrets removed from every trace before it is stored or shown to any model: the built-in rules (`src/core/secrets`:
 * provider shapes, private keys, JWTs, URL credentials, headers, assignments), the user's patterns (RE2, linear time),
 * and the same again inside base64 and %-encoded text. Home folders are shown as `~` in text, and in a command line
 * as what the shell expands to the same folder (`homePaths.ts`).
 */

const CUSTOM_TAG = tag('custom');
/** Encodings inside encodings are decoded this deep. */
const MAX_DEPTH = 2;

export interface Redactor {
  /** Returns the redacted text; `count` grows by the number of secrets removed. */
  redact(text: string): string;
  /** Text written to or read from a secret-bearing file: also every value in it that looks random, whole. */
  redactSecretFile(text: string, kind: SecretFileKind): string;
  /**
   * A command line (of a tool call that writes or reads a secret-bearing file of `kind`, if given): its home folders
   * hidden only in forms the shell expands to the same folder (only `home`, the session's, when it is known).
   */
  redactCommand(command: string, kind?: SecretFileKind, home?: string): string;
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
  /** Secrets removed; home folders shown as `~` when `homes`. */
  const redact = (text: string, homes = homePaths): string => {
    if (!text) return text;
    const { finds, homeFolders } = findSecrets(text, extra, decodedHoldsSecret);
    count += finds.length;
    let out = applyFinds(text, finds);
    // the keyword scan also tells which kinds of home folder are mentioned
    if (homes && homeFolders.unix) out = out.replace(UNIX_HOME_PATH, '~');
    if (homes && homeFolders.windows) out = out.replace(WINDOWS_HOME_PATH, '~');
    return out;
  };
  const redactSecretFile = (text: string, kind: SecretFileKind, homes = homePaths): string => {
    const ruled = redact(text, homes);
    const spans = secretFileSpans(ruled, kind);
    count += spans.length;
    if (spans.length === 0) return ruled;
    const parts: string[] = [];
    let at = 0;
    for (const [start, end] of spans) {
      parts.push(ruled.slice(at, start), SECRET_FILE_TAG);
      at = end;
    }
    parts.push(ruled.slice(at));
    return parts.join('');
  };
  return {
    get count() {
      return count;
    },
    redact: (text) => redact(text),
    redactSecretFile: (text, kind) => redactSecretFile(text, kind),
    redactCommand(command, kind, home) {
      const ruled = kind ? redactSecretFile(command, kind, false) : redact(command, false);
      return homePaths ? hideHomesInCommand(ruled, home) : ruled;
    },
  };
}

const builtIn = createRedactor({ homePaths: false });

/**
 * The built-in rules alone, the last line of defence at each sink (model requests, CLI output, logs, run records,
 * proposals): text from traces is redacted already, so this finds nothing there and costs one keyword scan.
 */
export function redactText(text: string): string {
  return builtIn.redact(text);
}

const builtInHoldsSecret =
  (depth: number) =>
  (decoded: string): boolean =>
    findSecrets(decoded, undefined, depth < MAX_DEPTH ? builtInHoldsSecret(depth + 1) : undefined).finds.length > 0;

/** Where `redactText` takes secrets out of `text`, and what it puts there: sorted, not overlapping. */
export function builtInFinds(text: string): Found[] {
  return text ? findSecrets(text, undefined, builtInHoldsSecret(1)).finds : [];
}
