import type { Step, Trace } from '../../../../src/core/trace/model';

// Small dialogues written for these tests: user turns, agent words and commands, numbered as a reader numbers them.

export type Line =
  | { user: string; queued?: boolean; confirmation?: boolean; undo?: boolean }
  | { say: string }
  | { run: string; code?: number; output?: string };

export function dialogue(lines: Line[]): Step[] {
  const steps: Step[] = [];
  let call = 0;
  for (const line of lines) {
    const index = steps.length;
    if ('user' in line) {
      const { user, ...flags } = line;
      steps.push({ index, kind: 'user', text: user, ...flags });
    } else if ('say' in line) steps.push({ index, kind: 'assistant', text: line.say });
    else {
      const callId = `c${call++}`;
      steps.push({ index, kind: 'tool_call', callId, tool: 'Bash', command: line.run, input: '{}' });
      const code = line.code ?? 0;
      steps.push({
        index: index + 1,
        kind: 'tool_result',
        callId,
        output: line.output ?? '',
        isError: code !== 0,
        exitCode: code,
      });
    }
  }
  return steps;
}

export function traceOf(id: string, steps: Step[]): Trace {
  return {
    schemaVersion: 1,
    id,
    agent: 'claude-code',
    source: { path: `/tmp/${id}.jsonl`, bytes: 0 },
    steps,
    outcome: { toolErrors: 0, testRuns: { passed: 0, failed: 0 }, userCorrections: 0, interrupted: false },
    unknown: {},
    warnings: [],
    redactions: 0,
  };
}
