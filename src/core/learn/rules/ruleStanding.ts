import type { RuleCounters } from './confirmedCounters';
import type { HelpfulnessPoint } from './helpfulness';

// What a rule's standing is made of; standings.ts works it out from the run records.

/** Where a rule is in its life, from its confirmed counters (the thresholds of the *Rule helpfulness* issue). */
export type RuleStage = 'new' | 'proven' | 'contested' | 'harmful';
/**
 * A stage, or a mark beside it: no evidence for many runs, broken by session after session, flagged by the trust
 * screen, pinned by the team, counters the playbook line claims beyond what this machine counted.
 */
export type RuleChip = RuleStage | 'stale' | 'violated' | 'flagged' | 'pinned' | 'unconfirmed';

/** Runs without a tag or a change for a rule after which it reads as stale. */
export const STALE_AFTER_RUNS = 5;

/** proven: helpful ≥ 3 and more than twice its harm; harmful: harm ≥ help + 2; contested: some harm; else new. */
export function ruleStage(helpful: number, harmful: number): RuleStage {
  if (harmful >= helpful + 2) return 'harmful';
  if (helpful >= 3 && helpful > 2 * harmful) return 'proven';
  if (harmful > 0) return 'contested';
  return 'new';
}

export interface RuleStanding {
  /** From the confirmed counters only: a line's claim proves nothing. */
  stage: RuleStage;
  counters: RuleCounters;
  /** The stage first, then `unconfirmed`, `stale`, `flagged` and `pinned` where they apply. */
  chips: RuleChip[];
  /** Cumulative helpful / harmful counts after each run that tagged the rule, oldest first. */
  history: HelpfulnessPoint[];
  /** Runs since the last one that tagged or changed the rule (every run when none did). */
  runsWithoutEvidence: number;
  /** Sessions that broke the rule as it is worded now. */
  violations: number;
}

export interface StandingInput {
  id: string;
  /** What the playbook line claims and what this machine confirms of it (confirmedCounters.ts). */
  counters: RuleCounters;
  flagged: boolean;
  pinned?: boolean;
}
