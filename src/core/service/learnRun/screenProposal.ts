import type { RuleWithScope } from '../../assets/agentsMd';
import type { AppliedOp } from '../../playbook/apply';
import type { Evidence } from '../../playbook/delta';
import { bullets, type Playbook } from '../../playbook/model';
import type { UnverifiedLesson } from '../../learn/reflectionSet';
import { groundingGap } from './lessonGrounding';
import { rulesFromApplied } from '../proposalFiles';
import type { Trace } from '../../trace/model';
import { holdBack, type Hold, type HeldRule } from '../../trust/hold';
import { describeFlags, type RuleFlag } from '../../trust/kinds';
import { screenRule } from '../../trust/screenRule';

export interface ScreenedProposal {
  /** The proposal's rule changes, each with its flags ([] when clean). */
  rules: Array<RuleWithScope & { flags: NonNullable<RuleWithScope['flags']> }>;
  hold: Hold;
  /** One line per flagged rule, new or existing: for the run record, the CLI and the log. */
  warnings: string[];
}

/** Screens a run's rule changes against their sessions, and the playbook's existing rules by their text. */
export function screenProposal(input: {
  applied: AppliedOp[];
  playbook: Playbook;
  traces: readonly Trace[];
  playbookPath: string;
  isTrusted?: (content: string) => boolean;
  /** Rule text turned down by name before: a held rule with it is kept out and asked about no more. */
  isRejected?: (content: string) => boolean;
  /** The playbook before the run: a removal's evidence is weighed against the words of the rule it removes. */
  before?: Playbook;
  /**
   * Rules removed because a new rule overrules them, by the id of that rule (see resolveConflicts.ts). Told, never
   * read from an operation's reason: a model's answer could write any reason.
   */
  overruledBy?: ReadonlyMap<string, string>;
  /**
   * The proposal is reviewed by the team as a pull request (CI, where no session is this machine's): evidence from
   * team bundles alone is what it reviews, so it holds nothing back on that ground.
   */
  teamReview?: boolean;
  /** Lessons of reflection sets this machine's store does not bear out (see reflectionSet.ts): their rules are flagged. */
  unverified?: readonly UnverifiedLesson[];
}): ScreenedProposal {
  const byId = new Map(input.traces.map((t) => [t.id, t] as const));
  const removedText = new Map(bullets(input.before ?? input.playbook).map((b) => [b.id, b.content]));
  const screened = rulesFromApplied(input.applied).map((rule) => {
    // the failing run of a removed rule's own command is an action that shows it, not text the agent read
    const weighed = rule.op === 'REMOVE' ? { ...rule, content: removedText.get(rule.id) } : rule;
    // a removal's text is the rule it removes, already reviewed: only where its evidence comes from can flag it
    const flags = screenRule(weighed, byId).filter(
      (f) =>
        (rule.op !== 'REMOVE' || f.kind === 'untrusted-source' || f.kind === 'team-only') &&
        !(input.teamReview && f.kind === 'team-only'),
    );
    const doubted = drawnFrom(rule, input.unverified ?? [], byId);
    return { ...rule, flags: doubted ? [...flags, doubted] : flags };
  });
  // a rule removed because a new one overrules it stands or falls with that rule: its evidence is that rule's
  const flagsOf = new Map(screened.map((r) => [r.id, r.flags]));
  const rules = screened.map((rule) => {
    const by = rule.op === 'REMOVE' ? input.overruledBy?.get(rule.id) : undefined;
    if (!by) return rule;
    const inherited = (flagsOf.get(by) ?? []).map((f) => ({
      ...f,
      reason: `the rule overruling it is flagged: ${f.reason}`,
    }));
    return { ...rule, flags: inherited };
  });
  const hold = holdBack({ playbook: input.playbook, rules, isTrusted: input.isTrusted, isRejected: input.isRejected });
  const warnings = [
    ...[...hold.flagged].map(
      ([id, flags]) =>
        `proposed rule ${id} is flagged (${describeFlags(flags)}); it is in the playbook diff only, and is accepted only by name`,
    ),
    ...hold.existing.map((held) => heldWarning(held, input.playbookPath)),
  ];
  return { rules, hold, warnings };
}

/** The run's line about a rule of the playbook that is held back. */
export function heldWarning(held: HeldRule, playbookPath: string): string {
  return `rule ${held.id} in ${playbookPath} is flagged (${describeFlags(held.flags)}); it is kept out of AGENTS.md and the other files`;
}

/**
 * The flag of a rule drawn from a doubted lesson (its support holds the lesson's session and every step it cites)
 * when those steps of the session, as stored here, do not show what the rule says either: a rule that only shares its
 * evidence with a tampered lesson, and says what the session shows, stands. A removal, or a lesson whose session is
 * not here, has nothing to compare: flagged.
 */
function drawnFrom(
  rule: { op: string; content?: string; support: readonly Evidence[] },
  unverified: readonly UnverifiedLesson[],
  traces: ReadonlyMap<string, Trace>,
): RuleFlag | undefined {
  const reasons = new Set<string>();
  for (const lesson of unverified) {
    const steps = rule.support.find((e) => e.traceId === lesson.traceId)?.steps;
    if (!steps || !lesson.steps.every((s) => steps.includes(s))) continue;
    const trace = traces.get(lesson.traceId);
    if (!trace || rule.op === 'REMOVE' || !rule.content) {
      reasons.add(lesson.reason);
      continue;
    }
    const gap = groundingGap(rule.content, trace, steps);
    if (gap) reasons.add(gap);
  }
  if (reasons.size === 0) return undefined;
  return {
    kind: 'untrusted-source',
    reason: `drawn from a lesson of the map phase's reflection files (anyone with the artifact could edit them) that this machine's sessions do not bear out: ${[...reasons].join('; ')}`,
  };
}
