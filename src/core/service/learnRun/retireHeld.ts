import { applyDelta } from '../../playbook/apply';
import type { DeltaOp } from '../../playbook/delta';
import { holdBack, type HeldRule } from '../../trust/hold';
import { describeFlags } from '../../trust/kinds';
import { rulesFromApplied } from '../proposalFiles';
import { pushApplyNode } from './applyNode';
import type { LearnResult } from './options';

// A flagged rule in the repository's own playbook (an injected one, say) is kept out of AGENTS.md and the other files,
// but an agent reading the playbook still meets it. The proposal offers to retire it: accepting takes it out of the
// playbook; rejecting keeps it there, held, and it is asked about no more (remembered as turned down by name).

/**
 * The removals of the held rules the user has not decided about, applied to the run's playbook as one apply node.
 * Returns those rules: the proposal still lists them as held (kept out of the other files until the removal lands).
 */
export function proposeHeldRetirements(
  result: LearnResult,
  remembered: { isTrusted?: (content: string) => boolean; isRejected: (content: string) => boolean },
): HeldRule[] {
  const held = holdBack({
    playbook: result.playbook,
    rules: rulesFromApplied(result.applied),
    isTrusted: remembered.isTrusted,
    isRejected: remembered.isRejected,
  }).existing;
  if (held.length === 0) return [];
  const ops: DeltaOp[] = held.map((h) => ({
    op: 'REMOVE',
    id: h.id,
    reason: `flagged in the playbook (${describeFlags(h.flags)}); agents reading the playbook would still follow it`,
    support: [],
  }));
  const applied = applyDelta(result.playbook, { ops, tags: [] });
  result.playbook = applied.playbook;
  result.applied.push(...applied.applied);
  pushApplyNode(
    result,
    'held',
    `${held.length} flagged rule(s) of the playbook offered for retirement`,
    applied.applied,
  );
  return held;
}
