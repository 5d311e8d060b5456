import { clipMiddle } from '../../util/text';
import type { Step, StepInput } from '../model';
import { commandFromArguments } from './toolCommand';
import { jsonText } from './jsonText';
import type { ReadContext, SessionFile } from './types';
import { pushStep, noteTime } from './sessionDraft';

// What the Copilot formats share while reading: the accumulator and how a step or a tool call is pushed.

export interface Acc {
  file: SessionFile;
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  syntheticCalls: number;
  callIds: Set<string>;
  id?: string;
  version?: string;
  cwd?: string;
  title?: string;
  firstPrompt?: string;
  startedAt?: string;
  endedAt?: string;
  model?: string;
}

export function push(acc: Acc, step: StepInput, time: string | undefined): void {
  pushStep(acc.steps, step, time);
  if (step.kind === 'tool_call') acc.callIds.add(step.callId);
  noteTime(acc, time);
}

export function pushCall(
  acc: Acc,
  callId: string | undefined,
  name: string | undefined,
  args: unknown,
  time: string | undefined,
): void {
  const input = typeof args === 'string' ? args : jsonText(args ?? {});
  push(
    acc,
    {
      kind: 'tool_call',
      callId: callId ?? `copilot-call-${++acc.syntheticCalls}`,
      tool: name ?? 'unknown',
      command: commandFromArguments(input),
      input: clipMiddle(input, acc.ctx.maxOutputChars).text,
    },
    time,
  );
}
