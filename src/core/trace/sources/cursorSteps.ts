import type { Step, StepInput } from '../model';
import { isRecord } from './common';
import { pushStep } from './sessionDraft';
import type { ReadContext } from './types';

// What Cursor's composers and chat tabs share while being read: the accumulator, how a step is pushed, times and
// values.

export interface Acc {
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  synthetic: number;
  model?: string;
  firstTime?: string;
  lastTime?: string;
}

/** Why a session with messages gave no step: what its messages were counted as. */
export function unreadableWhy(messages: number, unknown: Record<string, number>): string {
  return `none of its ${messages} message(s) could be read (${Object.entries(unknown)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ')})`;
}

export function push(acc: Acc, step: StepInput, time: string | undefined): void {
  if (time) {
    acc.firstTime ??= time;
    acc.lastTime = time;
  }
  pushStep(acc.steps, step, time);
}

/** ms since the epoch or an ISO string. */
export function timeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value).toISOString();
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return undefined;
}

export function clientTime(timing: unknown): string | undefined {
  // Only epoch milliseconds (some builds store a monotonic clock).
  return isRecord(timing) && typeof timing.clientStartTime === 'number' && timing.clientStartTime > 1e12
    ? timeOf(timing.clientStartTime)
    : undefined;
}

export function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
