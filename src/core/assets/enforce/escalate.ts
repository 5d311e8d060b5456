import type { Word } from '../../learn/rules/lifecycle';
import { bullets, type Playbook } from '../../playbook/model';
import type { AgentId, Trace } from '../../trace/model';
import { screenText } from '../../trust/screen';
import { teamOnlyReason } from '../../trust/screenRule';
import { AGENT_HOOKS, HOOK_AGENTS, HOOK_LABELS, type HookAgent } from './agentHooks';
import { ENFORCEMENT_KINDS, enforcedMarkLine, enforcedRules, type EnforcementSpec } from './mark';
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

/** How one agent's hook did on that agent's own sessions. */
export interface AgentReplay {
  agent: HookAgent;
  broke: Tally;
  followed: Tally;
}

export interface Escalation {
  ruleId: string;
  content: string;
  spec: EnforcementSpec;
  /** The agents whose sessions broke the rule (each one's hook is offered when it stops that agent's sessions). */
  agents: AgentId[];
  /** Each agent hook offered, replayed on that agent's sessions. */
  replays: AgentReplay[];
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
  /** The agent hooks the repository can take (agentHooks.ts `hookAgentsAvailable`); Claude Code's when not given. */
  hookAgents?: ReadonlySet<HookAgent>;
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

/** The agent whose sessions a hook stops, by the trace's agent. */
function hookAgentOf(agent: AgentId): HookAgent | undefined {
  if (agent === 'claude-code') return 'claude-code';
  return Object.values(AGENT_HOOKS).find((facts) => facts.sessions === agent)?.agent;
}

/**
 * Each agent's hook, replayed on that agent's sessions: of the matchers that stop no following session (of any agent:
 * a command someone ran while following the rule is never stopped), the narrowest that stop the sessions of this agent
 * that broke it. An agent whose hook would stop none of them gets none.
 */
function agentHooks(
  candidates: readonly CommandMatcher[],
  broke: readonly Trace[],
  followed: readonly Trace[],
  available: ReadonlySet<HookAgent>,
): { spec: EnforcementSpec; replays: AgentReplay[]; stopped: Trace[] } {
  const spec: EnforcementSpec = {};
  const replays: AgentReplay[] = [];
  const stopped: Trace[] = [];
  const stopsSession = (m: CommandMatcher, commands: readonly string[]) => commands.some((c) => stops(c, m));
  for (const agent of HOOK_AGENTS) {
    if (!available.has(agent)) continue;
    const own = (t: Trace) => hookAgentOf(t.agent) === agent;
    const brokeHere = broke.filter(own);
    if (brokeHere.length === 0) continue;
    const hook = verified(candidates, (m) => m.length, brokeHere, followed, stopsSession);
    if (hook.stopped.length === 0) continue;
    const followedHere = followed.filter(own);
    const followedStopped = followedHere.filter((t) => hook.kept.some((m) => stopsSession(m, commandsOf(t)))).length;
    spec[agent] = hook.kept;
    stopped.push(...hook.stopped);
    replays.push({
      agent,
      broke: { stopped: hook.stopped.length, of: brokeHere.length },
      followed: { stopped: followedStopped, of: followedHere.length },
    });
  }
  return { spec, replays, stopped };
}

/** The enforcements the playbook's broken prohibitions earn, rule by rule in its order. */
export function escalations(input: EscalationInput): Escalation[] {
  const enforced = enforcedRules(input.playbook);
  const found: Escalation[] = [];
  for (const rule of bullets(input.playbook)) {
    if (input.held.has(rule.id) || screenText(rule.content).length > 0) continue;
    // enforced already: offered again only to give a hook to an agent whose sessions broke it and that has none
    const before = enforced.get(rule.id)?.spec;
    const said = input.words.get(rule.id) ?? [];
    // a session that judged the rule wrong: enforcing it would stop what someone asked for
    if (said.some((w) => w.tag === 'harmful')) continue;
    const traceOf = (w: Word) => input.traces.get(w.traceId);
    const broke = said.filter((w) => w.tag === 'violated').flatMap((w) => traceOf(w) ?? []);
    if (broke.length < VIOLATIONS_TO_ENFORCE) continue;
    const followed = said.filter((w) => w.tag === 'helpful' || w.tag === 'neutral').flatMap((w) => traceOf(w) ?? []);

    let spec: EnforcementSpec = {};
    let followedStopped = 0;
    let replays: AgentReplay[] = [];
    const stoppedBy = new Set<Trace>();
    const candidates = forbiddenMatchers(rule.content);
    // the rule's commands, tried on every session that broke it: enough of them, and each agent's hook is replayed
    const any = verified<CommandMatcher>(
      candidates,
      (m) => m.length,
      broke,
      followed,
      (m, commands) => commands.some((c) => stops(c, m)),
    );
    if (any.stopped.length >= VIOLATIONS_TO_ENFORCE) {
      const hooks = agentHooks(candidates, broke, followed, input.hookAgents ?? new Set(['claude-code']));
      spec = hooks.spec;
      replays = hooks.replays;
      hooks.stopped.forEach((t) => stoppedBy.add(t));
      followedStopped = Math.max(followedStopped, any.followedStopped);
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
    if (before) {
      const added = ENFORCEMENT_KINDS.filter((kind) => spec[kind] && !before[kind]);
      if (added.length === 0) continue;
      spec = { ...before, ...Object.fromEntries(added.map((kind) => [kind, spec[kind]])) };
    }
    if (Object.keys(spec).length === 0) continue;
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
      replays,
      ...tally,
      mark: enforcedMarkLine(spec, why),
      ...(teamOnly ? { teamOnly } : {}),
    });
  }
  return found;
}

/** What the agents' hooks and the pre-commit check of a spec stop, as a phrase ("a Codex hook stopping `npm install`"). */
export function describeSpec(spec: EnforcementSpec, verb: { hook: string; commit: string }): string {
  return [
    ...HOOK_AGENTS.flatMap((agent) => {
      const commands = spec[agent];
      return commands
        ? [`a ${HOOK_LABELS[agent]} hook ${verb.hook} ${commands.map((m) => `\`${m.join(' ')}\``).join(', ')}`]
        : [];
    }),
    ...(spec['pre-commit']
      ? [`a pre-commit check ${verb.commit} ${spec['pre-commit'].map((p) => `\`${p}\``).join(', ')}`]
      : []),
  ].join(' and ');
}

/** One line of a proposal's explanation for an enforcement, with how each agent's hook did on that agent's sessions. */
export function describeEscalation(e: Escalation): string {
  const where = describeSpec(e.spec, { hook: 'stopping', commit: 'refusing' });
  const perAgent = (e.replays ?? []).map(
    (r) =>
      `${HOOK_LABELS[r.agent]}: ${r.broke.stopped} of ${r.broke.of} that broke it, ${r.followed.stopped} of ${r.followed.of} that followed it`,
  );
  const replayed = perAgent.length > 0 ? ` (each hook on its agent's sessions: ${perAgent.join('; ')})` : '';
  return `rule ${e.ruleId} is enforced by ${where}: it stops ${e.broke.stopped} of the ${e.broke.of} sessions that broke it (as worded now) and ${e.followed.stopped} of the ${e.followed.of} that followed it${replayed}`;
}
