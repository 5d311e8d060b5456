import { computeOutcome } from './outcome';
import { Trace, TRACE_SCHEMA_VERSION, type Step, type TraceDraft } from './model';
import type { Redactor } from './redact';

/** Redacts every free-text field of a draft, derives its outcome and validates the result. */
export function normalizeTrace(draft: TraceDraft, redactor: Redactor): Trace {
  const before = redactor.count;
  const r = (text: string | undefined) => (text === undefined ? undefined : redactor.redact(text));
  const steps: Step[] = draft.steps.map((step) => {
    switch (step.kind) {
      case 'user':
      case 'assistant':
      case 'error':
        return { ...step, text: redactor.redact(step.text) };
      case 'tool_call':
        return { ...step, input: redactor.redact(step.input), command: r(step.command) };
      case 'tool_result':
        return { ...step, output: redactor.redact(step.output) };
      case 'subagent':
        return { ...step, description: r(step.description) };
    }
  });
  const trace = {
    ...draft,
    schemaVersion: TRACE_SCHEMA_VERSION,
    title: r(draft.title),
    cwd: draft.cwd,
    steps,
    outcome: computeOutcome(steps),
    redactions: 0,
  };
  trace.redactions = redactor.count - before;
  return Trace.parse(trace);
}
