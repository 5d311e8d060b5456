import type { Proposal } from '../../assets/proposal';
import { isOpen, pendingRules } from '../../assets/review';
import { rulesInFile } from './ruleFiles';

export interface ReviewStatus {
  /** Rules waiting for a decision (flagged ones included: they wait for one by name). */
  rules: number;
  /** Files waiting for a decision of their own: those holding no pending rule (counters, a held rule taken out). */
  files: number;
  /** Open proposals. */
  proposals: number;
}

/**
 * What still waits in a proposal, from the same decisions its files were written from. A file holding pending rules
 * is decided with them, so it is not counted again.
 */
export function proposalStatus(proposal: Proposal): ReviewStatus {
  if (!isOpen(proposal)) return { rules: 0, files: 0, proposals: 0 };
  const pending = pendingRules(proposal);
  return {
    rules: pending.length,
    files: proposal.files.filter((f) => rulesInFile(f, pending).length === 0).length,
    proposals: 1,
  };
}

export function reviewStatus(proposals: readonly Proposal[]): ReviewStatus {
  return proposals
    .map(proposalStatus)
    .reduce(
      (sum, s) => ({ rules: sum.rules + s.rules, files: sum.files + s.files, proposals: sum.proposals + s.proposals }),
      { rules: 0, files: 0, proposals: 0 },
    );
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 rules and 1 file to review", "1 rule to review", "nothing to review". */
export function describeStatus(status: ReviewStatus): string {
  const parts = [
    ...(status.rules > 0 ? [count(status.rules, 'rule')] : []),
    ...(status.files > 0 ? [count(status.files, 'file')] : []),
  ];
  return parts.length === 0 ? 'nothing to review' : `${parts.join(' and ')} to review`;
}
