import { CONFIG_FORM_RULES } from './configForms';
import { CONTEXT_RULES } from './contextual';
import { ENCODED_TAGS, encodedSpans } from './encoded';
import { KeywordFilter, type TextScan } from './keywords';
import { privateKeyRanges, PRIVATE_KEY_TAG } from './privateKeys';
import { PROSE_RULES } from './prose';
import { PROVIDER_RULES } from './providers';
import { startsToken, tag, type SecretRule } from './rule';

/** Private key blocks are found by `privateKeyRanges`, not by a pattern: this entry gives them their keywords. */
const PRIVATE_KEYS: SecretRule = {
  id: 'private-key',
  provider: 'Private keys (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP, PuTTY)',
  keywords: ['private key', 'putty-user-key-file'],
  pattern: /(?!)/g,
};

/** Not secrets: home folders, which the redactor shows as `~`. The scan tells whether a text has one, and of which kind. */
const UNIX_HOMES: SecretRule = { id: 'home-folder', provider: '', keywords: ['/home/', '/users/'], pattern: /(?!)/g };
const WINDOWS_HOMES: SecretRule = { id: 'home-folder', provider: '', keywords: [':\\'], pattern: /(?!)/g };
const HOME_FOLDERS = [UNIX_HOMES, WINDOWS_HOMES];

/**
 * Private keys, then provider shapes (a token inside a header or an assignment keeps its provider's name), then the
 * contexts, tools' own forms and prose. Earlier rules name a secret several rules find.
 */
export const BUILT_IN_RULES: readonly SecretRule[] = [
  PRIVATE_KEYS,
  ...PROVIDER_RULES,
  ...CONTEXT_RULES,
  ...CONFIG_FORM_RULES,
  ...PROSE_RULES,
  ...HOME_FOLDERS,
];
const UNIX_HOMES_INDEX = BUILT_IN_RULES.indexOf(UNIX_HOMES);
const WINDOWS_HOMES_INDEX = BUILT_IN_RULES.indexOf(WINDOWS_HOMES);
/** Built on first use: a process that redacts nothing (a re-import with nothing new) does not pay for the tables. */
let tables: { filter: KeywordFilter; sticky: Array<RegExp | undefined>; tags: string[] } | undefined;
function built(): NonNullable<typeof tables> {
  tables ??= {
    filter: new KeywordFilter(BUILT_IN_RULES),
    sticky: BUILT_IN_RULES.map((r) =>
      r.anchored ? new RegExp(r.pattern.source, r.pattern.flags.replace('g', '') + 'y') : undefined,
    ),
    tags: BUILT_IN_RULES.map((r) => tag(r.id)),
  };
  return tables;
}

/** Which kinds of home folder a text may name (case-insensitively: a superset of what the redactor replaces). */
export interface HomeFolders {
  unix: boolean;
  windows: boolean;
}

/** A secret found: what replaces [start, end), and the whole match with its context [matchStart, matchEnd). */
export interface Found {
  start: number;
  end: number;
  matchStart: number;
  matchEnd: number;
  replacement: string;
}

/** Finds more secrets in a text the built-in rules have scanned (the user's patterns). */
export type ExtraFinder = (text: string, found: (start: number, end: number, replacement: string) => void) => void;

/** Calls `found` for each match of `rule` at one place (`sticky`) or over the whole text. */
function matchRule(
  rule: SecretRule,
  pattern: RegExp,
  text: string,
  at: number,
  found: (f: Found) => void,
  replacement: string,
): number {
  pattern.lastIndex = at;
  const m = pattern.exec(text);
  if (!m) return -1;
  const start = m.index;
  if (m[0].length === 0) return start + 1;
  if (rule.boundary !== false && !startsToken(text, start)) return start + 1;
  const where = rule.locate ? rule.locate(m, text) : [0, m[0].length];
  // a match that holds no secret (`the key: DB_PASSWORD=…`) must not hide what starts inside it
  if (!where) return start + 1;
  // what an earlier redaction left is no secret (redacting twice changes nothing)
  if (where[1] > where[0] && !text.startsWith('[REDACTED:', start + where[0]))
    found({
      start: start + where[0],
      end: start + where[1],
      matchStart: start,
      // a rule may look past its match (prose reads the words after a name)
      matchEnd: start + Math.max(m[0].length, where[1]),
      replacement,
    });
  return start + m[0].length;
}

/** Every secret the built-in rules find in `text` (overlaps possible), in rule order. */
function findBuiltIn(text: string, scan: TextScan, found: (f: Found) => void): void {
  const { sticky: STICKY, tags: TAGS } = built();
  for (const i of scan.rules) {
    const rule = BUILT_IN_RULES[i];
    if (rule === UNIX_HOMES || rule === WINDOWS_HOMES) continue;
    if (rule === PRIVATE_KEYS) {
      for (const r of privateKeyRanges(text))
        found({ start: r.start, end: r.end, matchStart: r.start, matchEnd: r.end, replacement: PRIVATE_KEY_TAG });
      continue;
    }
    const sticky = STICKY[i];
    if (sticky) {
      let next = 0;
      const back = rule.back ?? 0;
      for (const anchor of scan.anchors.get(i) ?? []) {
        const at = anchor - back;
        if (at < next || at < 0) continue;
        const end = matchRule(rule, sticky, text, at, found, TAGS[i]);
        if (end > 0) next = end;
      }
    } else {
      for (let at = 0; at >= 0 && at < text.length;) at = matchRule(rule, rule.pattern, text, at, found, TAGS[i]);
    }
  }
}

/**
 * Every secret in `text`: built-in rules, `extra` (the user's patterns), and encoded runs whose decoded text holds
 * one (decided by `holdsSecret`). Overlapping finds are merged into one, named by the first rule that found it.
 */
export function findSecrets(
  text: string,
  extra: ExtraFinder | undefined,
  holdsSecret: ((decoded: string) => boolean) | undefined,
): { finds: Found[]; homeFolders: HomeFolders } {
  const scan = built().filter.scan(text);
  return {
    finds: findIn(text, scan, extra, holdsSecret),
    homeFolders: { unix: scan.rules.includes(UNIX_HOMES_INDEX), windows: scan.rules.includes(WINDOWS_HOMES_INDEX) },
  };
}

function findIn(
  text: string,
  scan: TextScan,
  extra: ExtraFinder | undefined,
  holdsSecret: ((decoded: string) => boolean) | undefined,
): Found[] {
  const all: Found[] = [];
  const add = (f: Found) => all.push(f);
  findBuiltIn(text, scan, add);
  extra?.(text, (start, end, replacement) => all.push({ start, end, matchStart: start, matchEnd: end, replacement }));
  if (holdsSecret && (scan.base64.length > 0 || scan.percent)) {
    for (const e of encodedSpans(text, scan.base64, scan.percent, holdsSecret))
      all.push({
        ...e,
        matchStart: e.start,
        matchEnd: e.end,
        replacement: e.kind === 'base64' ? ENCODED_TAGS.base64 : ENCODED_TAGS.url,
      });
  }
  return outsidePlaceholders(text, merge(all));
}

/** The redactor's own tags: what an earlier redaction left. */
const PLACEHOLDER = /\[REDACTED:[a-z0-9-]{1,60}\]/g;

/**
 * Finds kept out of the tags an earlier redaction left (a rule's keyword inside `[REDACTED:secret-…]`, a user's
 * pattern matching `REDACTED`), so redacting twice changes nothing: one that starts in a tag read the tag as its
 * value and is dropped; one that ends in a tag stops before it. A find around a whole tag and more is kept.
 */
function outsidePlaceholders(text: string, finds: Found[]): Found[] {
  if (finds.length === 0 || !text.includes('[REDACTED:')) return finds;
  const tags = [...text.matchAll(PLACEHOLDER)].map((m) => [m.index, m.index + m[0].length] as const);
  const out: Found[] = [];
  for (const f of finds) {
    let end = f.end;
    let dropped = false;
    for (const [s, e] of tags) {
      if (f.start >= s && f.start < e) dropped = true;
      else if (f.start < s && end > s && end <= e) end = s;
    }
    if (!dropped && end > f.start) out.push(end === f.end ? f : { ...f, end });
  }
  return out;
}

/** Sorted, non-overlapping finds; overlapping ones become one, named by the earliest found (rule order). */
function merge(all: Found[]): Found[] {
  if (all.length <= 1) return all;
  const order = all.map((f, i) => ({ f, i })).sort((a, b) => a.f.start - b.f.start || a.i - b.i);
  const out: Found[] = [];
  let current: Found | undefined;
  let currentRank = 0;
  for (const { f, i } of order) {
    if (current && f.start < current.end) {
      current.end = Math.max(current.end, f.end);
      current.matchEnd = Math.max(current.matchEnd, f.matchEnd);
      current.matchStart = Math.min(current.matchStart, f.matchStart);
      if (i < currentRank) {
        current.replacement = f.replacement;
        currentRank = i;
      }
      continue;
    }
    current = { ...f };
    currentRank = i;
    out.push(current);
  }
  return out;
}

/** `text` with the finds replaced. */
export function applyFinds(text: string, finds: readonly Found[]): string {
  if (finds.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const f of finds) {
    parts.push(text.slice(at, f.start), f.replacement);
    at = f.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** Whole matches (with their context) of the built-in rules: where a cut must not fall. Unmerged, unsorted. */
export function secretMatches(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  findBuiltIn(text, built().filter.scan(text), (f) => spans.push({ start: f.matchStart, end: f.matchEnd }));
  return spans;
}

/** Numbers for the README: rules, providers and keywords. */
export function ruleStats(): { rules: number; providers: number; keywords: number } {
  const secrets = BUILT_IN_RULES.filter((r) => !HOME_FOLDERS.includes(r));
  return {
    rules: secrets.length,
    providers: new Set(secrets.map((r) => r.provider)).size,
    keywords: built().filter.size - HOME_FOLDERS.reduce((n, r) => n + r.keywords.length, 0),
  };
}
