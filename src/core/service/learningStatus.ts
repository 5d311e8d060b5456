import type { LearnedState } from '../store/workspaceState';

/** A session whose learning failed this many times is no longer retried by itself; it is reported with the reason. */
export const MAX_LEARNING_FAILURES = 3;

export type LearningStatus =
  | { kind: 'learned' | 'new' }
  /** Tried again by the next run. */
  | { kind: 'failed'; count: number; reason: string }
  /** Failed MAX_LEARNING_FAILURES times: left out of runs, shown with the last reason. */
  | { kind: 'given up'; count: number; reason: string };

/** Where a session stands in one workspace's learned.json. */
export function learningStatus(state: LearnedState, id: string): LearningStatus {
  if (state.learned[id]) return { kind: 'learned' };
  const failure = state.failed[id];
  if (!failure) return { kind: 'new' };
  return {
    kind: failure.count >= MAX_LEARNING_FAILURES ? 'given up' : 'failed',
    count: failure.count,
    reason: failure.reason,
  };
}
