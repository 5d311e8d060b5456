import { z } from 'zod';

/**
 * What a flag says about a rule. The risk kinds come from the rule's text; `untrusted-source` and `team-only` from its
 * evidence.
 *
 * Decision table (see screenRule):
 * | kind             | from      | cleared by a user message in the evidence that states the same thing? |
 * |------------------|-----------|------------------------------------------------------------------------|
 * | remote-code      | text      | no: a URL piped into a shell is never a rule to keep unreviewed         |
 * | exfiltration     | text      | no                                                                      |
 * | agent-directive  | text      | no: instructions aimed at the agent are the injection itself            |
 * | obfuscation      | text      | no: nobody hides the letters of an honest rule                          |
 * | disables-checks  | text      | yes (a team may really commit with --no-verify or trust a private CA)  |
 * | permissions      | text      | yes (sudo, allow-lists: a user may ask for them)                        |
 * | destructive      | text      | yes (a user may ask to reset a branch or drop a test database)          |
 * | untrusted-source | evidence  | n/a: set when no cited step bearing on the rule is the user saying it  |
 * |                  |           | or an action that worked (provenance.ts)                               |
 * | team-only        | evidence  | n/a: set when what shows the rule is only in sessions of team bundles  |
 * |                  |           | (anyone can write a bundle); cleared when this machine's sessions do   |
 */
export const RISK_KINDS = [
  'remote-code',
  'exfiltration',
  'agent-directive',
  'obfuscation',
  'disables-checks',
  'permissions',
  'destructive',
] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

export const FLAG_KINDS = [...RISK_KINDS, 'untrusted-source', 'team-only'] as const;
export const FlagKind = z.enum(FLAG_KINDS);
export type FlagKind = z.infer<typeof FlagKind>;

export const RuleFlag = z.object({ kind: FlagKind, reason: z.string() });
export type RuleFlag = z.infer<typeof RuleFlag>;

/** Kinds a user's own words in the evidence can clear; the others stand whatever the evidence says. */
export const CONTEXTUAL_KINDS: ReadonlySet<FlagKind> = new Set<FlagKind>([
  'disables-checks',
  'permissions',
  'destructive',
]);

export function describeFlags(flags: readonly RuleFlag[]): string {
  return flags.map((f) => `${f.kind}: ${f.reason}`).join('; ');
}
