import { classifyTurns, correctionSteps } from '../../../trace/turns/classify';
import type { Gate, GateContext, GatedRule } from './types';

// One session shows what happened once; a rule needs a pattern: two sessions or more, or the user saying it as a
// standing instruction (a turn of a supporting session, among the steps the rule cites, stated as general).

export const MIN_SESSIONS = 2;

export function statedAsStanding(rule: GatedRule, context: GateContext): boolean {
  return rule.support.some((evidence) => {
    const trace = context.traces.get(evidence.traceId);
    if (!trace) return false;
    const cited = new Set(evidence.steps);
    return classifyTurns(trace.steps).some(
      (turn) => (cited.has(turn.index) || cited.has(turn.contentIndex)) && turn.standing.length > 0,
    );
  });
}

/** The commands a rule names, in backticks, spaces collapsed. */
function commandsOf(content: string): string[] {
  return [...content.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim().replace(/\s+/g, ' '));
}

/**
 * Sessions of the run that act the rule out though no lesson of theirs was merged into it: every command it names ran
 * there, one of them successfully (another session's `make gen` and `make test`, or its `go test` and `make test`).
 */
function reenactedIn(rule: GatedRule, context: GateContext): Set<string> {
  const commands = commandsOf(rule.content);
  const found = new Set<string>();
  if (commands.length === 0) return found;
  for (const trace of context.traces.values()) {
    const results = new Map(trace.steps.flatMap((s) => (s.kind === 'tool_result' ? [[s.callId, s] as const] : [])));
    const ran = trace.steps.flatMap((s) => {
      if (s.kind !== 'tool_call' || !s.command) return [];
      const result = results.get(s.callId);
      const ok = result !== undefined && !result.isError && (result.exitCode ?? 0) === 0;
      return [{ command: s.command.trim().replace(/\s+/g, ' '), ok }];
    });
    const runs = commands.map((command) =>
      ran.filter((r) => r.command === command || r.command.startsWith(`${command} `)),
    );
    if (runs.every((r) => r.length > 0) && runs.some((r) => r.some((x) => x.ok))) found.add(trace.id);
  }
  return found;
}

/** Whether the rule cites the user correcting the agent: a lesson of one session's correction. */
function citesACorrection(rule: GatedRule, context: GateContext): boolean {
  return rule.support.some(({ traceId, steps }) => {
    const trace = context.traces.get(traceId);
    if (!trace) return false;
    const corrections = correctionSteps(trace.steps);
    return steps.some((i) => corrections.has(i));
  });
}

/**
 * Two sessions, or a standing instruction, for a rule drawn from a user's correction. A rule drawn from failures alone
 * passes for now: one action's lesson of two sessions still arrives as two rules until commands share one identity.
 */
export const userWordsSupportGate: Gate = {
  name: 'support',
  check: (rule, context) => (citesACorrection(rule, context) ? supportGate.check(rule, context) : undefined),
};

export const supportGate: Gate = {
  name: 'support',
  check: (rule, context) => {
    const sessions = new Set([...rule.support.map((e) => e.traceId), ...reenactedIn(rule, context)]).size;
    if (sessions >= MIN_SESSIONS || statedAsStanding(rule, context)) return undefined;
    return `seen in ${sessions} session(s) and not stated by the user as a standing instruction: needs ${MIN_SESSIONS} sessions`;
  },
};
