import { RISK_KINDS, type RiskKind, type RuleFlag } from './kinds';
import { joinSpelledWords, normalizeRuleText } from './normalize';
import { CLAUSE_BREAK, NEGATION, RISK_PATTERNS, type RiskPattern } from './patterns';

/** How many words before a match a negation may stand and still govern it. */
const NEGATION_REACH = 8;

/** The clause before `at`: from the last sentence end, semicolon, comma or joining word, at most a few words. */
function clauseBefore(text: string, at: number): string {
  const before = text.slice(0, at);
  let start = 0;
  for (const m of before.matchAll(CLAUSE_BREAK)) start = (m.index ?? 0) + m[0].length;
  return before
    .slice(start)
    .split(' ')
    .slice(-NEGATION_REACH - 1)
    .join(' ');
}

function quote(match: string): string {
  const clean = match.trim();
  return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
}

const GLOBAL = new Map<RiskPattern, RegExp>(
  RISK_PATTERNS.map((p) => [p, new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`)]),
);

function firstMatch(pattern: RiskPattern, text: string): string | undefined {
  // A cheap test first: most rules match no pattern at all.
  if (!pattern.re.test(text)) return undefined;
  const global = GLOBAL.get(pattern) as RegExp;
  global.lastIndex = 0;
  for (const m of text.matchAll(global)) {
    if (pattern.negatable !== false && NEGATION.test(clauseBefore(text, m.index ?? 0))) continue;
    if (pattern.acceptable?.(m[0], text)) continue;
    return m[0];
  }
  return undefined;
}

/**
 * The risk flags of a rule's text: one per kind, with the first reason that matched and the words it matched.
 * Deterministic, and in the fixed order of RISK_KINDS.
 */
export function screenText(raw: string): RuleFlag[] {
  const { text, obfuscated } = normalizeRuleText(raw);
  const found = new Map<RiskKind, RuleFlag>();
  const readings = [text, joinSpelledWords(text)];
  for (const pattern of RISK_PATTERNS) {
    if (found.has(pattern.kind)) continue;
    for (const reading of readings) {
      const match = firstMatch(pattern, reading);
      if (match === undefined) continue;
      found.set(pattern.kind, { kind: pattern.kind, reason: `${pattern.reason}: "${quote(match)}"` });
      break;
    }
  }
  if (obfuscated)
    found.set('obfuscation', {
      kind: 'obfuscation',
      reason: 'hides letters (invisible characters, escapes, quotes inside a word or look-alike letters)',
    });
  return RISK_KINDS.flatMap((kind) => (found.has(kind) ? [found.get(kind) as RuleFlag] : []));
}
