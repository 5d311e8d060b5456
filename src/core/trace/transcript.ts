import { stripTerminalCodes } from '../util/terminalCodes';
import type { Step, Trace } from './model';
import { userStepKind, type UserStepKind } from './userStepKind';

const TRANSCRIPT_NOTE: Record<UserStepKind, string> = {
  words: '',
  injected: ' (injected context)',
  confirmation: " (answered the agent tool's prompt)",
  undo: " (undid the agent's last edit)",
};

export interface Transcript {
  text: string;
  /** The 0-based line where each step starts, by step index. */
  stepLines: Map<number, number>;
}

/** One step as readable lines: `#12 USER:` and the text, indented, so a reader can follow the session. */
function stepLines(step: Step): string[] {
  const head = (label: string) => `#${step.index}${step.time ? ` ${step.time.slice(11, 19)}` : ''} ${label}`;
  const body = (text: string) => text.split('\n').map((line) => `    ${line}`);
  switch (step.kind) {
    case 'user':
      return [head(`USER${TRANSCRIPT_NOTE[userStepKind(step)]}:`), ...body(step.text)];
    case 'assistant':
      return [head('AGENT:'), ...body(step.text)];
    case 'tool_call':
      return [head(`TOOL ${step.tool}:`), ...body(step.command !== undefined ? `$ ${step.command}` : step.input)];
    case 'tool_result': {
      const status = step.isError ? `error${step.exitCode !== undefined ? `, exit ${step.exitCode}` : ''}` : 'ok';
      const cut = step.truncatedFrom !== undefined ? `, cut from ${step.truncatedFrom} characters` : '';
      return [
        head(`RESULT (${status}${step.interrupted ? ', interrupted' : ''}${cut}):`),
        ...body(stripTerminalCodes(step.output)),
      ];
    }
    case 'subagent':
      return [head(`SUBAGENT ${step.traceId}`), ...(step.description ? body(step.description) : [])];
    case 'error':
      return [head('ERROR:'), ...body(stripTerminalCodes(step.text))];
  }
}

/** A session as evidence names it: “its title” (agent, the day it started). */
export function sessionLabel(trace: Trace): string {
  const date = (trace.startedAt ?? trace.endedAt ?? '').slice(0, 10);
  const from = trace.contributor ? `, from ${trace.contributor}` : '';
  return `“${trace.title ?? trace.id}” (${trace.agent}${date ? `, ${date}` : ''}${from})`;
}

/** A stored session as a plain-text transcript (already redacted when it was imported), with where each step is. */
export function transcript(trace: Trace): Transcript {
  const lines = [
    `${trace.title ?? trace.id}`,
    `${trace.agent} · ${trace.startedAt ?? 'start unknown'}${trace.endedAt ? ` → ${trace.endedAt}` : ''} · ${trace.steps.length} step(s)`,
    ...(trace.cwd ? [`in ${trace.cwd}`] : []),
    `session ${trace.id}`,
    '',
  ];
  const starts = new Map<number, number>();
  for (const step of trace.steps) {
    starts.set(step.index, lines.length);
    lines.push(...stepLines(step), '');
  }
  return { text: lines.join('\n'), stepLines: starts };
}
