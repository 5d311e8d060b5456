import { publicKeyFromBlob } from './ssh/publicKey';
import { SshFormatError } from './ssh/wire';

// An allowed-signers file as `ssh-keygen -Y verify` and git's `gpg.ssh.allowedSignersFile` read it: one key a line,
// `principals [options] keytype base64-key [comment]`, the options `namespaces="…"`, `valid-after="…"`,
// `valid-before="…"` and `cert-authority`. It says which key belongs to whom: it vouches for identities, nothing else.
// Parsed into plain data (it crosses to the worker thread that reads bundles); a line it cannot read is skipped with a
// warning naming the line, never guessed at.

export interface AllowedSigner {
  /** Its line in the file (1-based). */
  line: number;
  /** The principals as written: a comma-separated pattern list (`alice@example.com`, `*@example.com`, `!bob`). */
  principals: string;
  /** `namespaces="…"`: the namespaces the key may sign in (a pattern list); absent: any. */
  namespaces?: string;
  /** `valid-after` / `valid-before`, in ms since the epoch. */
  validAfter?: number;
  validBefore?: number;
  keyType: string;
  /** The key's wire blob, base64. */
  key: string;
}

export interface AllowedSigners {
  /** Where it was read from (for messages). */
  source: string;
  signers: AllowedSigner[];
  /** One per line skipped, naming it and why. */
  warnings: string[];
}

/** A file of keys is small: a longer one is not an allowed-signers file. */
export const MAX_ALLOWED_SIGNERS_BYTES = 1024 * 1024;

/** Whitespace-separated fields; a double-quoted span may hold spaces (`"a@x, b@x"`, `namespaces="git, file"`). */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    if (!quoted && /\s/.test(char)) {
      if (started) out.push(current);
      current = '';
      started = false;
      continue;
    }
    current += char;
    started = true;
  }
  if (quoted) throw new SshFormatError('a quote is not closed');
  if (started) out.push(current);
  return out;
}

const unquote = (text: string) =>
  text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;

/** `YYYYMMDD[HHMM[SS]][Z]`: UTC with the Z, else local time (as ssh-keygen reads it). */
function timestamp(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/.exec(text);
  if (!m) throw new SshFormatError(`${JSON.stringify(text)} is not a time (YYYYMMDD[HHMM[SS]][Z])`);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => (v === undefined ? 0 : Number(v)));
  const time = m[7] ? Date.UTC(y, mo - 1, d, h, mi, s) : new Date(y, mo - 1, d, h, mi, s).getTime();
  if (Number.isNaN(time) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59)
    throw new SshFormatError(`${JSON.stringify(text)} is not a time`);
  return time;
}

/** Comma-separated options; a value's quotes may hold commas. */
function options(text: string): Pick<AllowedSigner, 'namespaces' | 'validAfter' | 'validBefore'> & { ca: boolean } {
  const out: Pick<AllowedSigner, 'namespaces' | 'validAfter' | 'validBefore'> & { ca: boolean } = { ca: false };
  for (const option of text.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const eq = option.indexOf('=');
    const name = (eq < 0 ? option : option.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? undefined : unquote(option.slice(eq + 1));
    if (name === 'cert-authority' && value === undefined) out.ca = true;
    else if (name === 'namespaces' && value !== undefined) out.namespaces = value;
    else if (name === 'valid-after' && value !== undefined) out.validAfter = timestamp(value);
    else if (name === 'valid-before' && value !== undefined) out.validBefore = timestamp(value);
    else throw new SshFormatError(`unknown option ${JSON.stringify(name)}`);
  }
  return out;
}

const looksLikeKey = (type: string | undefined, base64: string | undefined) => {
  if (!type || !base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return false;
  try {
    return publicKeyFromBlob(Buffer.from(base64, 'base64')).type === type;
  } catch {
    return false;
  }
};

function signerOf(line: string, no: number): AllowedSigner | { ca: true } {
  const parts = fields(line);
  const principals = unquote(parts[0] ?? '');
  if (!principals) throw new SshFormatError('it names no principal');
  // the options field is there when the second field is not a key type followed by its key
  const hasOptions = !looksLikeKey(parts[1], parts[2]);
  const parsed = hasOptions ? options(parts[1] ?? '') : { ca: false };
  const [keyType, key] = hasOptions ? [parts[2], parts[3]] : [parts[1], parts[2]];
  if (!looksLikeKey(keyType, key)) throw new SshFormatError('it holds no public key (keytype base64-key)');
  if (parsed.ca) return { ca: true };
  const { namespaces, validAfter, validBefore } = parsed;
  return {
    line: no,
    principals,
    ...(namespaces !== undefined ? { namespaces } : {}),
    ...(validAfter !== undefined ? { validAfter } : {}),
    ...(validBefore !== undefined ? { validBefore } : {}),
    keyType: keyType!,
    key: Buffer.from(key!, 'base64').toString('base64'),
  };
}

export function parseAllowedSigners(text: string, source: string): AllowedSigners {
  const signers: AllowedSigner[] = [];
  const warnings: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      const signer = signerOf(line, index + 1);
      if ('ca' in signer)
        warnings.push(`${source}:${index + 1}: a cert-authority line (certificates are not supported): skipped`);
      else signers.push(signer);
    } catch (error) {
      if (!(error instanceof SshFormatError)) throw error;
      warnings.push(`${source}:${index + 1}: ${error.message}: skipped`);
    }
  });
  return { source, signers, warnings };
}

/**
 * OpenSSH's wildcard match: `*` any run, `?` one character; the whole text. Greedy with one resume point (the last
 * `*`): at most |pattern| × |text| steps, where a regular expression backtracks exponentially on `*a*a*a…b`.
 */
function wildcard(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** A comma-separated pattern list: no `!pattern` matches and some plain pattern does. */
export function matchesPatternList(list: string, text: string): boolean {
  let matched = false;
  for (const raw of list.split(',')) {
    const pattern = raw.trim();
    if (pattern.startsWith('!')) {
      if (wildcard(pattern.slice(1), text)) return false;
    } else if (pattern && wildcard(pattern, text)) matched = true;
  }
  return matched;
}

export interface SignerLookup {
  /** The principal pattern lists of the lines that allow the key in the namespace at the time; empty: not allowed. */
  principals: string[];
  /** Why the key is not allowed, when it is listed but its lines do not allow this use. */
  why?: string;
}

/** The lines listing `keyBlob` that allow it to sign in `namespace` at `now` (ms). */
export function lookUpSigner(allowed: AllowedSigners, keyBlob: Buffer, namespace: string, now: number): SignerLookup {
  const key = keyBlob.toString('base64');
  const listed = allowed.signers.filter((s) => s.key === key);
  const principals: string[] = [];
  const reasons: string[] = [];
  for (const signer of listed) {
    if (signer.namespaces !== undefined && !matchesPatternList(signer.namespaces, namespace))
      reasons.push(`line ${signer.line} allows it only for ${JSON.stringify(signer.namespaces)}`);
    else if (signer.validAfter !== undefined && now < signer.validAfter)
      reasons.push(`line ${signer.line} allows it only from ${new Date(signer.validAfter).toISOString()}`);
    else if (signer.validBefore !== undefined && now >= signer.validBefore)
      reasons.push(`line ${signer.line} allowed it only until ${new Date(signer.validBefore).toISOString()}`);
    else principals.push(signer.principals);
  }
  return principals.length > 0 || reasons.length === 0 ? { principals } : { principals, why: reasons.join('; ') };
}

/**
 * The name a verified signer is counted and shown under: the bundle's own name for its exporter when a matching line's
 * principals include it (`*@example.com` and `alice@example.com`), else the first plain principal listed.
 */
export function signerName(principals: readonly string[], claimed: string): string {
  if (claimed && principals.some((list) => matchesPatternList(list, claimed))) return claimed;
  const plain = principals
    .flatMap((list) => list.split(','))
    .map((p) => p.trim())
    .filter((p) => p && !p.startsWith('!'));
  return plain.find((p) => !/[*?]/.test(p)) ?? plain[0] ?? 'unknown';
}
