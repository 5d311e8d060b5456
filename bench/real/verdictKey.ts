import { createHash } from 'node:crypto';
import { normalizeRuleText, type CorpusVerdicts, type Verdict } from './types';

// A verdict is filed under the rule's normalized text, so a reviewer sees what was judged. A rule whose text is
// someone's words copied from a session (a user turn, a plan, a persona prompt) or carries personal data is filed
// under the SHA-256 of that text instead: the project never keeps other people's words or personal data.

const HASHED_KEY = /^sha256:[0-9a-f]{64}$/;

/** The hashed key of a rule: `sha256:` and the hex digest of its normalized text. */
export function hashedRuleKey(rule: string): string {
  return `sha256:${createHash('sha256').update(normalizeRuleText(rule), 'utf8').digest('hex')}`;
}

export function isHashedRuleKey(key: string): boolean {
  return HASHED_KEY.test(key);
}

/** The verdict given to a rule, filed under its normalized text or under that text's hash. */
export function verdictFor(verdicts: CorpusVerdicts, rule: string): Verdict | undefined {
  const filed = (key: string) => (Object.hasOwn(verdicts.verdicts, key) ? verdicts.verdicts[key] : undefined);
  return filed(normalizeRuleText(rule)) ?? filed(hashedRuleKey(rule));
}
