import type { Strategy } from './types';

/** What a learning strategy decides for a run, looked up once from its name (the setting, the CLI flag). */
export interface LearningStrategy {
  readonly name: Strategy;
  /** The sessions per batch, given the size asked for (sequential learns from one session at a time). */
  batchSize<Size extends number | 'auto'>(requested: Size): Size | 1;
  /** Whether a batch of this many sessions is merged by the parallel scan; otherwise by one aggregation call. */
  scans(sessions: number): boolean;
  /** Whether an overloaded call's dropped items are sent again in smaller calls (see overload.ts). */
  readonly redoesOverload: boolean;
  /** How many times the estimate counts each lesson read: the scan's p = 2 at level 1 and the global call. */
  readonly lessonReads: number;
  /** The name of a batch's one aggregation call in the tree. */
  readonly singleCallLabel: string;
}

/** Fewer sessions than this in a batch leave nothing to scan in parallel: one call merges them. */
const MIN_SCAN_SESSIONS = 4;

const STRATEGIES: Record<Strategy, LearningStrategy> = {
  combee: {
    name: 'combee',
    batchSize: (requested) => requested,
    scans: (sessions) => sessions >= MIN_SCAN_SESSIONS,
    redoesOverload: true,
    lessonReads: 3,
    singleCallLabel: 'aggregation (n < 4)',
  },
  naive: {
    name: 'naive',
    batchSize: (requested) => requested,
    scans: () => false,
    redoesOverload: false,
    lessonReads: 1,
    singleCallLabel: 'naive aggregation',
  },
  sequential: {
    name: 'sequential',
    batchSize: () => 1,
    scans: () => false,
    redoesOverload: false,
    lessonReads: 1,
    singleCallLabel: 'aggregation',
  },
};

export const learningStrategy = (name: Strategy): LearningStrategy => STRATEGIES[name];
