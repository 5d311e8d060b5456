import type { Evidence } from '../playbook/delta';
import type { Trace } from '../trace/model';
import { CONTEXTUAL_KINDS, type RuleFlag } from './kinds';
import { restsOnReadText, summarizeEvidence } from './provenance';
import { screenText } from './screen';

export interface ScreenableRule {
  op: 'ADD' | 'UPDATE' | 'MERGE' | 'REMOVE';
  content?: string;
  support: readonly Evidence[];
}

function stepList(steps: Array<{ traceId: string; step: number }>): string {
  const byTrace = new Map<string, number[]>();
  for (const s of steps) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s.step]);
  return [...byTrace].map(([id, list]) => `${id} step${list.length > 1 ? 's' : ''} ${list.join(', ')}`).join('; ');
}

/**
 * The flags of one proposed rule change: its text screened (see kinds.ts for the decision table), then its evidence.
 * A contextual flag is cleared only by a cited user message of this machine's sessions that itself says the same kind
 * of thing (a team bundle's can be forged); a rule whose cited steps are all text the agent read (or not in the
 * store) is flagged `untrusted-source`; one that only team bundles' sessions show is flagged `team-only` (a bundle can be
 * forged whole) until this machine's sessions show it too.
 */
export function screenRule(rule: ScreenableRule, traces: ReadonlyMap<string, Trace>): RuleFlag[] {
  const summary = summarizeEvidence(rule.support, traces, rule.content);
  const flags: RuleFlag[] = [];
  if (rule.content) {
    const kindsIn = (texts: string[]) => new Set(texts.flatMap((t) => screenText(t).map((f) => f.kind)));
    // a bundle's sessions can be forged whole: only the user's own words here clear a contextual flag
    const ownKinds = kindsIn(summary.ownUserTexts);
    const teamKinds = kindsIn(summary.userTexts);
    for (const flag of screenText(rule.content)) {
      if (CONTEXTUAL_KINDS.has(flag.kind) && ownKinds.has(flag.kind)) continue;
      flags.push(
        CONTEXTUAL_KINDS.has(flag.kind) && teamKinds.has(flag.kind)
          ? { ...flag, reason: `${flag.reason} (a teammate's session says so too; only your own sessions clear this)` }
          : flag,
      );
    }
  }
  if (restsOnReadText(summary)) {
    const read = summary.readSteps.length > 0 ? `: ${stepList(summary.readSteps)}` : '';
    const unrelated = summary.unrelated > 0 ? ` (${summary.unrelated} other cited step(s) do not bear on it)` : '';
    flags.push({
      kind: 'untrusted-source',
      reason: `its only evidence is text the agent read (tool output, a fetched page, a file), not the user saying it or an action that worked${unrelated}${read}`,
    });
  } else if (summary.cited === 0 && summary.missing > 0) {
    flags.push({
      kind: 'untrusted-source',
      reason: 'its sessions are not in the store, so its evidence cannot be checked',
    });
  } else if (summary.teamSessions > 0 && summary.ownUserTexts.length === 0 && !summary.ownActed) {
    flags.push({
      kind: 'team-only',
      reason: teamOnlyReason(summary.teamSessions, summary.teamExporters, summary.teamSigners),
    });
  }
  return flags;
}

/** Whose sessions show it: a bundle's name is whatever its exporter wrote, unless its signature verified. */
export function teamOnlyReason(
  sessions: number,
  exporters: readonly string[],
  signers: readonly string[] = [],
): string {
  const declared = exporters.map((name) => JSON.stringify(name));
  const signed = signers.map((name) => `${JSON.stringify(name)} (verified)`);
  const who = [
    ...(signed.length > 0 ? [`signed by ${signed.join(', ')}`] : []),
    ...(declared.length > 0 ? [`exported as ${declared.join(', ')}; the names are self-declared`] : []),
  ].join('; ');
  return `what shows it is only in ${sessions} session(s) of team bundles (${who}), and none of your own sessions shows it`;
}

/** Flags of an existing playbook rule: no evidence to weigh, so its text alone decides (a clone is untrusted input). */
export function screenExistingRule(content: string): RuleFlag[] {
  return screenText(content);
}
