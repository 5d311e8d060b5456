import { classifyCommand } from '../../../trace/commands';
import { correctionSteps } from '../../../trace/turns/classify';
import type { Gate, GateContext, GatedRule } from './types';

// A rule that only names what the repository already tells an agent (a package.json script, a Makefile target, a
// command in its README, CONTRIBUTING or agent files) spends the agents' attention on what they read anyway, unless
// the sessions show agents getting it wrong: a failing run of that kind of command, or the user correcting them.

/** The commands a rule names, in backticks. */
function commandsOf(content: string): string[] {
  return [...content.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim().replace(/\s+/g, ' '));
}

/** A rule that only names a way to do something: "Run the tests with `pnpm test`." — no condition, no contrast. */
const NAMES_ONLY = /^[^`]*`[^`]+`[.\s]*$/;

function declared(command: string, context: GateContext): boolean {
  if (context.repository.commands.has(command)) return true;
  return context.repository.documents.some(({ text }) => text.includes(command));
}

function agentsGotItWrong(rule: GatedRule, commands: string[], context: GateContext): boolean {
  const kinds = new Set(commands.map(classifyCommand));
  return rule.support.some(({ traceId }) => {
    const trace = context.traces.get(traceId);
    if (!trace) return false;
    if (correctionSteps(trace.steps).size > 0) return true;
    const calls = new Map(trace.steps.flatMap((s) => (s.kind === 'tool_call' && s.command ? [[s.callId, s]] : [])));
    return trace.steps.some((s) => {
      if (s.kind !== 'tool_result' || !(s.isError || (s.exitCode ?? 0) !== 0)) return false;
      const command = calls.get(s.callId)?.command;
      return command !== undefined && kinds.has(classifyCommand(command));
    });
  });
}

export const restatesGate: Gate = {
  name: 'restates-repository',
  check: (rule, context) => {
    const commands = commandsOf(rule.content);
    if (commands.length === 0 || !NAMES_ONLY.test(rule.content.trim())) return undefined;
    if (!commands.every((c) => declared(c, context)) || agentsGotItWrong(rule, commands, context)) return undefined;
    return `the repository already says it (${commands.map((c) => `\`${c}\``).join(', ')}), and no session shows agents getting it wrong`;
  },
};
