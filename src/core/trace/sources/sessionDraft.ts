import type { Step, StepInput, Trace, TraceDraft } from '../model';

// What every reader keeps of a session while it reads one, and how a step joins it. Each reader's own accumulator
// extends `SessionDraft` with the bookkeeping its format needs.

export interface SessionDraft {
  /** Numbered as they come (see `pushStep`). */
  steps: Step[];
  startedAt?: string;
  endedAt?: string;
  /** Record types and fields the reader did not understand, counted (see `countUnknown`). */
  unknown: Record<string, number>;
}

export function newSessionDraft(): SessionDraft {
  return { steps: [], unknown: {} };
}

/**
 * Appends a step, numbered, with its record's time and whether it ran in a subagent. A copy, not the reader's literal
 * completed in place: properties added to a literal after it is made live outside it, and a short-lines import then
 * ran three times as many full garbage collections (14 against 5 on the short corpus, `--trace-gc`).
 */
export function pushStep(steps: Step[], step: StepInput, time?: string, sidechain?: boolean): Step {
  const numbered = { ...step, index: steps.length, time, sidechain: sidechain ? true : undefined } as Step;
  steps.push(numbered);
  return numbered;
}

/** A record's time: the first one seen starts the session, the latest ends it. */
export function noteTime(draft: Pick<SessionDraft, 'startedAt' | 'endedAt'>, time: string | undefined): void {
  if (time === undefined || time === '') return;
  draft.startedAt ??= time;
  draft.endedAt = time;
}

/** What a resumed read takes back from the stored trace it continues (its steps: each reader keeps them its way). */
export interface SeededFields {
  startedAt?: string;
  endedAt?: string;
  unknown: Record<string, number>;
  cwd?: string;
  version?: string;
}

/** Continues a stored trace on a resumed read: its times, counts, folder and agent version. */
export function seedFromTrace(draft: SeededFields, trace: Trace): void {
  draft.startedAt = trace.startedAt;
  draft.endedAt = trace.endedAt;
  draft.unknown = trace.unknown;
  draft.cwd = trace.cwd;
  draft.version = trace.agentVersion;
}

/** What a reader says about a session beyond its draft (its times too: some take them from metadata). */
export type SessionFields = Omit<TraceDraft, 'steps' | 'unknown' | 'warnings'>;

/** The trace draft of a session that was read; `undefined` when it has no step (nothing happened in it). */
export function finishSession(draft: SessionDraft, fields: SessionFields): TraceDraft | undefined {
  if (draft.steps.length === 0) return undefined;
  return { ...fields, steps: draft.steps, unknown: draft.unknown, warnings: [] };
}
