import { countTokens } from '../util/tokens';
import { stripTerminalCodes } from '../util/terminalCodes';
import { clipMiddle } from '../util/text';
import type { Step, Trace } from './model';
import { userStepKind, type UserStepKind } from './userStepKind';

const CONDENSED_NOTE: Record<UserStepKind, string> = {
  words: '',
  injected: ' (injected)',
  confirmation: ' (answered a prompt)',
  undo: ' (undid the last edit)',
};

export const DEFAULT_CONDENSE_BUDGET = 6000;
const OMISSION_MARKER_TOKENS = 12;

interface Caps {
  user: number;
  assistant: number;
  input: number;
  output: number;
}

const START_CAPS: Caps = { user: 2000, assistant: 1200, input: 600, output: 2400 };

/** Successful output says less than a failure: it gets a third of the room. */
function renderStep(step: Step, caps: Caps): string {
  const cut = (text: string, max: number) => clipMiddle(text.trim(), max).text;
  switch (step.kind) {
    case 'user':
      return `#${step.index} USER${CONDENSED_NOTE[userStepKind(step)]}: ${cut(step.text, step.isMeta ? caps.user / 4 : caps.user)}`;
    case 'assistant':
      return `#${step.index} AGENT: ${cut(step.text, caps.assistant)}`;
    case 'tool_call':
      return step.command
        ? `#${step.index} TOOL ${step.tool}: $ ${cut(step.command, caps.input)}`
        : `#${step.index} TOOL ${step.tool}: ${cut(step.input, caps.input)}`;
    case 'tool_result': {
      const status =
        step.isError || (step.exitCode ?? 0) !== 0
          ? `FAILED${step.exitCode !== undefined ? ` exit ${step.exitCode}` : ''}`
          : 'ok';
      const room = status === 'ok' ? caps.output / 3 : caps.output;
      return `#${step.index} RESULT ${status}${step.interrupted ? ' (interrupted)' : ''}: ${cut(stripTerminalCodes(step.output), room)}`;
    }
    case 'subagent':
      return `#${step.index} SUBAGENT ${step.traceId}${step.description ? `: ${cut(step.description, 200)}` : ''}`;
    case 'error':
      return `#${step.index} ERROR: ${cut(stripTerminalCodes(step.text), 600)}`;
  }
}

function header(trace: Trace): string {
  const o = trace.outcome;
  return [
    `Session ${trace.id} (${trace.agent}${trace.agentVersion ? ` ${trace.agentVersion}` : ''})${trace.title ? `: ${trace.title.slice(0, 160)}` : ''}`,
    `Outcome: ${o.toolErrors} tool error(s); test runs ${o.testRuns.passed} passed / ${o.testRuns.failed} failed; ${o.userCorrections} user correction(s)${o.interrupted ? '; interrupted' : ''}.`,
  ].join('\n');
}

export interface Condensed {
  text: string;
  tokens: number;
  /** Steps left out entirely to fit the budget. */
  omittedSteps: number;
}

/**
 * A trace as token-budgeted text for a model: intent, decisions, errors and what fixed them, commands and outcome.
 * Long outputs are cut in the middle; if that is not enough, caps shrink, then the middle of the session is dropped
 * (user messages and failures are kept longest). Step numbers stay those of the trace, for evidence references.
 */
export function condenseTrace(trace: Trace, budgetTokens = DEFAULT_CONDENSE_BUDGET): Condensed {
  const head = header(trace);
  let caps = { ...START_CAPS };
  for (let round = 0; round < 6; round++) {
    const text = [head, ...trace.steps.map((s) => renderStep(s, caps))].join('\n');
    const tokens = countTokens(text);
    if (tokens <= budgetTokens) return { text, tokens, omittedSteps: 0 };
    caps = {
      user: caps.user * 0.6,
      assistant: caps.assistant * 0.5,
      input: caps.input * 0.6,
      output: caps.output * 0.5,
    };
  }
  // Still too long: keep the steps that matter most, in order, until the budget is used.
  const rendered = trace.steps.map((s) => ({ step: s, line: renderStep(s, caps) }));
  const priority = (s: Step) =>
    s.kind === 'user' && !s.isMeta
      ? 0
      : s.kind === 'error' || (s.kind === 'tool_result' && s.isError)
        ? 1
        : s.kind === 'tool_call'
          ? 2
          : 3;
  const order = [...rendered].sort((a, b) => priority(a.step) - priority(b.step) || a.step.index - b.step.index);
  let used = countTokens(head) + 20;
  const keep = new Set<number>();
  for (const { step, line } of order) {
    // + room for the "[… n step(s) omitted …]" marker that may follow a kept step
    const cost = countTokens(line) + 1 + OMISSION_MARKER_TOKENS;
    if (used + cost > budgetTokens) continue;
    used += cost;
    keep.add(step.index);
  }
  const lines = [head];
  let omitted = 0;
  let gap = 0;
  for (const { step, line } of rendered) {
    if (keep.has(step.index)) {
      if (gap) lines.push(`[… ${gap} step(s) omitted …]`);
      gap = 0;
      lines.push(line);
    } else {
      gap++;
      omitted++;
    }
  }
  if (gap) lines.push(`[… ${gap} step(s) omitted …]`);
  const text = lines.join('\n');
  return { text, tokens: countTokens(text), omittedSteps: omitted };
}
