import { TRACE_SCHEMA_VERSION, type Step, type StepInput, type Trace } from '../src/core/trace/model';
import { computeOutcome } from '../src/core/trace/outcome';

/** Builds a valid trace from step shorthands, for tests that need a trace but not a reader. */
export function makeTrace(id: string, steps: StepInput[], extra: Partial<Trace> = {}): Trace {
  const numbered = steps.map((s, index) => ({ ...s, index }) as Step);
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    id,
    agent: 'claude-code',
    cwd: '/home/dev/acme-shop',
    startedAt: '2026-11-01T10:00:00.000Z',
    source: { path: `/tmp/${id}.jsonl`, bytes: 1 },
    steps: numbered,
    outcome: computeOutcome(numbered),
    unknown: {},
    warnings: [],
    redactions: 0,
    ...extra,
  };
}

let call = 0;
/** A shell command and its result as two steps. */
export function shell(command: string, output: string, exitCode = 0): StepInput[] {
  const callId = `call-${++call}`;
  return [
    { kind: 'tool_call', callId, tool: 'Bash', command, input: JSON.stringify({ command }) },
    {
      kind: 'tool_result',
      callId,
      output: exitCode === 0 ? output : `Exit code ${exitCode}\n${output}`,
      isError: exitCode !== 0,
      exitCode: exitCode === 0 ? undefined : exitCode,
    },
  ];
}

export const user = (text: string): StepInput => ({ kind: 'user', text });
export const assistant = (text: string): StepInput => ({ kind: 'assistant', text });
