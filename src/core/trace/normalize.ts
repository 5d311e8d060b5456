import { computeOutcome } from './outcome';
import { Step, Trace, TRACE_SCHEMA_VERSION, type TraceDraft } from './model';
import type { Redactor } from './redact';
import { homeOf } from './homePaths';
import { callSecretFile, redactToolCall } from './secretFileSteps';
import type { SecretFileKind } from '../secrets/secretFiles';
import { fastParser } from '../util/fastParse';
import { stripTerminalCodes } from '../util/terminalCodes';

// every step and every trace goes through them: checked without zod's per-parse copy (see fastParse)
const parseStep = fastParser(Step);
const parseTraceFields = fastParser(Trace.omit({ steps: true }));

/**
 * Redacts every free-text field of a draft, derives its outcome and validates the result. The draft's steps become
 * the trace's, redacted in place, so a big session's text is never held twice. Validation checks the trace without
 * keeping zod's copy of it.
 */
export function normalizeTrace(draft: TraceDraft, redactor: Redactor): Trace {
  const before = redactor.count;
  const steps: Step[] = draft.steps;
  const secretFileCalls = new Map<string, SecretFileKind>();
  const home = homeOf(draft.cwd);
  for (let i = 0; i < steps.length; i++) {
    redactStep(steps[i], redactor, secretFileCalls, home);
    const checked = parseStep(steps[i]);
    if (!checked.success)
      throw new Error(
        `step ${i}: ${checked.error.issues[0]?.message ?? 'invalid'} at ${checked.error.issues[0]?.path.join('.') ?? ''}`,
      );
  }
  const trace: Trace = {
    ...draft,
    schemaVersion: TRACE_SCHEMA_VERSION,
    title: draft.title === undefined ? undefined : redactor.redact(draft.title),
    // a warning may quote what the reader could not parse
    warnings: draft.warnings.map((w) => redactor.redact(w)),
    cwd: draft.cwd,
    steps,
    outcome: computeOutcome(steps),
    redactions: 0,
  };
  trace.redactions = redactor.count - before;
  const { steps: _steps, ...fields } = trace;
  const checked = parseTraceFields(fields);
  if (!checked.success) throw checked.error;
  return trace;
}

/**
 * Redacts a step's free text in place (the draft is the normalizer's to change). A call that writes or reads a
 * secret-bearing file is remembered in `secretFileCalls`, so that its result is redacted as that file's text too.
 */
function redactStep(
  step: Step,
  redactor: Redactor,
  secretFileCalls: Map<string, SecretFileKind>,
  home: string | undefined,
): void {
  switch (step.kind) {
    case 'user':
    case 'assistant':
      step.text = redactor.redact(step.text);
      break;
    case 'error':
      step.text = redactor.redact(stripTerminalCodes(step.text));
      break;
    case 'tool_call': {
      const kind = callSecretFile(step.tool, step.input, step.command);
      if (kind) secretFileCalls.set(step.callId, kind);
      const redacted = redactToolCall(step.input, step.command, kind, redactor, home);
      step.input = redacted.input;
      if (step.command !== undefined) step.command = redacted.command;
      break;
    }
    case 'tool_result': {
      const kind = secretFileCalls.get(step.callId);
      // colours and cursor moves are no part of what a tool said
      const output = stripTerminalCodes(step.output);
      step.output = kind ? redactor.redactSecretFile(output, kind) : redactor.redact(output);
      break;
    }
    case 'subagent':
      if (step.description !== undefined) step.description = redactor.redact(step.description);
      break;
  }
}
