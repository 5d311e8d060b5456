import type { ToolCallStep, ToolResultStep, Trace } from '../../../trace/model';
import { identityKey, mainIdentity } from '../../../trace/shell';
import { failedResult } from '../../sessionSignals';
import { prescribedCommands } from './completeCommand';
import type { Gate, GateContext, GatedRule } from './types';

// A rule whose every cited run failed, naming a command that never worked in its session without telling the agent
// to run it, says that command does not work here ("`gh auth status` fails here for want of a login"). One session of
// the run where it passed refutes it: what fails in some sessions and works in others is no standing fact of the
// environment. A rule that cites a pass (a fix), names a command that passed later in that session (a check that
// caught an edit), or tells the agent to run it, is not judged here.

type Run = { call: ToolCallStep; result: ToolResultStep };

function runsOf(trace: Trace): Run[] {
  const calls = new Map<string, ToolCallStep>();
  const runs: Run[] = [];
  for (const step of trace.steps) {
    if (step.kind === 'tool_call' && step.command) calls.set(step.callId, step);
    if (step.kind !== 'tool_result' || step.notRun) continue;
    const call = calls.get(step.callId);
    if (call) runs.push({ call, result: step });
  }
  return runs;
}

const keyOf = (run: Run) => {
  const id = mainIdentity(run.call.command ?? '', run.call.workdir);
  return id && identityKey(id);
};
const failed = (run: Run) => failedResult(run.result, run.call.command);
/** A pass the record shows: no failure, and a status of 0 or some output where an export records no statuses. */
const passed = (run: Run, trace: Trace) =>
  !failed(run) && (run.result.exitCode === 0 || run.result.output.trim() !== '' || trace.exportedBy === undefined);

/** The commands a rule's evidence shows only failing, or undefined when it cites a run that did not fail. */
function onlyFailing(rule: GatedRule, context: GateContext): Set<string> | undefined {
  const keys = new Set<string>();
  for (const evidence of rule.support) {
    const trace = context.traces.get(evidence.traceId);
    if (!trace) continue;
    const cited = new Set(evidence.steps);
    const runs = runsOf(trace);
    for (const run of runs) {
      if (!cited.has(run.call.index) || !cited.has(run.result.index)) continue;
      const key = keyOf(run);
      if (!failed(run) || !key) return undefined;
      // a command that worked later in that session (a check that caught an edit) is not said to fail here
      if (!runs.some((other) => keyOf(other) === key && passed(other, trace))) keys.add(key);
    }
  }
  if (keys.size === 0) return undefined;
  // only what the rule names, and does not tell the agent to run
  const identity = (span: string) => {
    const id = mainIdentity(span);
    return id && identityKey(id);
  };
  const named = new Set([...rule.content.matchAll(/`([^`\n]+)`/g)].map((m) => identity(m[1])));
  const prescribed = new Set(prescribedCommands(rule.content).map(identity));
  const judged = [...keys].filter((k) => named.has(k) && !prescribed.has(k));
  return judged.length > 0 ? new Set(judged) : undefined;
}

/** A session of the run where a command the rule shows only failing passed; undefined when none did. */
export function refutedBy(rule: GatedRule, context: GateContext): { session: string; command: string } | undefined {
  const failing = onlyFailing(rule, context);
  if (!failing) return undefined;
  for (const trace of context.traces.values())
    for (const run of runsOf(trace)) {
      const key = keyOf(run);
      if (key && failing.has(key) && passed(run, trace)) return { session: trace.id, command: key };
    }
  return undefined;
}

export const refutedGate: Gate = {
  name: 'refuted',
  check: (rule, context) => {
    const found = refutedBy(rule, context);
    return found && `it rests on \`${found.command}\` failing, and it passed in session ${found.session}`;
  },
};
