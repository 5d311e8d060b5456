import type { Word } from '../../learn/lifecycle';
import { bullets, type Playbook } from '../../playbook/model';
import type { AgentId, Trace } from '../../trace/model';
import { screenText } from '../../trust/screen';
import { teamOnlyReason } from '../../trust/screenRule';
import { enforcedMarkLine, enforcedRules, type EnforcementSpec } from './mark';
import { forbiddenMatchers, stops, type CommandMatcher } from './matcher';
import { commitsPath, committedPaths } from './preCommit';

// A rule that forbids a command, broken in VIOLATIONS_TO_ENFORCE sessions since it was last worded, is offered an
// enforcement: a check that stops the forbidden command before it runs. Its matcher is tried on the sessions
// themselves first: it must have stopped each session that broke the rule it is counted for, and none that followed
// the rule — a matcher that would have stopped a following session is not offered.

export const VIOLATIONS_TO_ENFORCE = 3;

export interface Tally {
  stopped: number;
  of: number;
}

export interface Escalation {
  ruleId: string;
  content: string;
  spec: EnforcementSpec;
  /** The agents whose sessions broke the rule (the Claude Code hook is offered when Claude Code is among them). */
  agents: AgentId[];
  /** Sessions that broke the rule as worded now, and how many of them the enforcement would have stopped. */
  broke: Tally;
  /** Sessions that had the rule in play and did not break it, and how many it would have stopped (always 0). */
  followed: Tally;
  /** The playbook mark that records it. */
  mark: string;
  /** Set when only team bundles' sessions broke it (anyone can write a bundle): offered held, with no mark. */
  teamOnly?: string;
}

export interface EscalationInput {
  playbook: Playbook;
  /** Each session's word on each rule since its wording last changed (lifecycle.ts `wordsByRule`). */
  words: ReadonlyMap<string, readonly Word[]>;
  /** The sessions those words name, as stored here (a session not here counts for nothing). */
  traces: ReadonlyMap<string, Trace>;
  /** Rules held back by the trust screen. */
  held: ReadonlySet<string>;
  /** Whether the repository has a pre-commit hook Combee can add its check to. */
  preCommit: boolean;
  /** Reviewed by the team as a pull request: bundles' sessions are what it reviews, so they hold nothing back. */
  teamReview?: boolean;
}

function commandsOf(trace: Trace): string[] {
  return trace.steps.flatMap((s) => (s.kind === 'tool_call' && s.command ? [s.command] : []));
}

/**
 * The checks that hold for every session tried: none that would have stopped a following session, and of the rest the
 * narrowest that stop the breaking ones (`npm install` before `npm`, which stops `npm view` too): the most specific
 * first, a broader one only for a breaking session the ones before it let through.
 */
function verified<T>(
  candidates: readonly T[],
  specificity: (check: T) => number,
  broke: readonly Trace[],
  followed: readonly Trace[],
  stopsSession: (check: T, commands: readonly string[]) => boolean,
): { kept: T[]; stopped: Trace[]; followedStopped: number } {
  const brokeCommands = broke.map((t) => ({ trace: t, commands: commandsOf(t) }));
  const followedCommands = followed.map(commandsOf);
  const safe = candidates
    .filter((c) => !followedCommands.some((f) => stopsSession(c, f)))
    .map((check, order) => ({ check, order }))
    .sort((a, b) => specificity(b.check) - specificity(a.check) || a.order - b.order);
  const kept: T[] = [];
  const stopped = new Set<Trace>();
  for (const { check } of safe) {
    const more = brokeCommands.filter((b) => !stopped.has(b.trace) && stopsSession(check, b.commands));
    if (more.length === 0) continue;
    kept.push(check);
    for (const b of more) stopped.add(b.trace);
  }
  // zero by construction, counted all the same: the proposal says what the checks kept do on the sessions
  const followedStopped = followedCommands.filter((f) => kept.some((c) => stopsSession(c, f))).length;
  return { kept, stopped: [...stopped], followedStopped };
}

/** The enforcements the playbook's broken prohibitions earn, rule by rule in its order. */
export function escalations(input: EscalationInput): Escalation[] {
  const enforced = enforcedRules(input.playbook);
  const found: Escalation[] = [];
  for (const rule of bullets(input.playbook)) {
    if (enforced.has(rule.id) || input.held.has(rule.id) || screenText(rule.content).length > 0) continue;
    const said = input.words.get(rule.id) ?? [];
    // a session that judged the rule wrong: enforcing it would stop what someone asked for
    if (said.some((w) => w.tag === 'harmful')) continue;
    const traceOf = (w: Word) => input.traces.get(w.traceId);
    const broke = said.filter((w) => w.tag === 'violated').flatMap((w) => traceOf(w) ?? []);
    if (broke.length < VIOLATIONS_TO_ENFORCE) continue;
    const followed = said.filter((w) => w.tag === 'helpful' || w.tag === 'neutral').flatMap((w) => traceOf(w) ?? []);

    const spec: EnforcementSpec = {};
    let followedStopped = 0;
    const stoppedBy = new Set<Trace>();
    const hook = verified<CommandMatcher>(
      forbiddenMatchers(rule.content),
      (m) => m.length,
      broke,
      followed,
      (m, commands) => commands.some((c) => stops(c, m)),
    );
    if (hook.stopped.length >= VIOLATIONS_TO_ENFORCE && hook.stopped.some((t) => t.agent === 'claude-code')) {
      spec['claude-code'] = hook.kept;
      hook.stopped.forEach((t) => stoppedBy.add(t));
      followedStopped = Math.max(followedStopped, hook.followedStopped);
    }
    if (input.preCommit) {
      const commit = verified(
        committedPaths(rule.content),
        (p) => p.length,
        broke,
        followed,
        (p, commands) => commands.some((c) => commitsPath(c, p)),
      );
      if (commit.stopped.length >= VIOLATIONS_TO_ENFORCE) {
        spec['pre-commit'] = commit.kept;
        commit.stopped.forEach((t) => stoppedBy.add(t));
        followedStopped = Math.max(followedStopped, commit.followedStopped);
      }
    }
    if (!spec['claude-code'] && !spec['pre-commit']) continue;
    const agents = [...new Set(broke.map((t) => t.agent))].sort();
    const tally = {
      broke: { stopped: stoppedBy.size, of: broke.length },
      followed: { stopped: followedStopped, of: followed.length },
    };
    const team = broke.filter((t) => t.contributor !== undefined);
    const teamOnly =
      !input.teamReview && team.length === broke.length
        ? teamOnlyReason(
            team.length,
            [...new Set(team.map((t) => t.contributor as string))],
            [...new Set(team.flatMap((t) => (t.signedBy ? [t.signedBy] : [])))],
          )
        : undefined;
    const why = `stops ${tally.broke.stopped} of ${tally.broke.of} sessions that broke it, ${tally.followed.stopped} of ${tally.followed.of} that followed it`;
    found.push({
      ruleId: rule.id,
      content: rule.content,
      spec,
      agents,
      ...tally,
      mark: enforcedMarkLine(spec, why),
      ...(teamOnly ? { teamOnly } : {}),
    });
  }
  return found;
}

/** One line of a proposal's explanation for an enforcement. */
export function describeEscalation(e: Escalation): string {
  const where = [
    ...(e.spec['claude-code']
      ? [`a Claude Code hook stopping ${e.spec['claude-code'].map((m) => `\`${m.join(' ')}\``).join(', ')}`]
      : []),
    ...(e.spec['pre-commit']
      ? [`a pre-commit check refusing ${e.spec['pre-commit'].map((p) => `\`${p}\``).join(', ')}`]
      : []),
  ].join(' and ');
  return `rule ${e.ruleId} is enforced by ${where}: it stops ${e.broke.stopped} of the ${e.broke.of} sessions that broke it (as worded now) and ${e.followed.stopped} of the ${e.followed.of} that followed it`;
}
