import type { ToolCallStep, ToolResultStep, Trace } from '../../trace/model';
import { identityKey, mainIdentity } from '../../trace/shell';
import { failedResult } from '../sessionSignals';
import type { Gate, GateContext, GatedRule } from './types';

// A rule whose every cited run failed says those commands do not work here ("`gh auth status` fails here for want of
// a login"). One session of the run where such a command passed refutes it: what fails in some sessions and works in
// others is no standing fact of the environment. Rules that cite a pass (a fix, a check that caught an edit) are not
// judged here.

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
    for (const run of runsOf(trace)) {
      if (!cited.has(run.call.index) || !cited.has(run.result.index)) continue;
      const key = keyOf(run);
      if (!failed(run) || !key) return undefined;
      keys.add(key);
    }
  }
  return keys.size > 0 ? keys : undefined;
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
