import { budgetOps } from '../../learn/rules/budget';
import { confirmCounters, type LocalCounts } from '../../learn/rules/confirmedCounters';
import { lifecycleOps, wordsByRule } from '../../learn/rules/lifecycle';
import type { RunRecord } from '../../learn/record/record';
import type { RuleStanding } from '../../learn/rules/ruleStanding';
import { ruleStandings } from '../../learn/rules/standings';
import { applyDelta } from '../../playbook/apply';
import type { DeltaOp } from '../../playbook/delta';
import { pinnedIds } from '../../playbook/marks';
import { bullets } from '../../playbook/model';
import { pushApplyNode } from './applyNode';
import type { LearnResult } from './options';

/**
 * The rules' lifecycle and the playbook's budget as operations of this run's proposal: applied to its playbook
 * (reviewed with the rest) and shown in its tree as one more apply node. Only after a completed run: a partial one
 * says too little of staleness.
 */
export async function proposeUpkeep(
  records: readonly RunRecord[],
  local: LocalCounts,
  result: LearnResult,
  veto: (op: DeltaOp) => string | undefined,
  budgetTokens: number,
  staleAfterRuns: number,
): Promise<void> {
  const pinned = pinnedIds(result.playbook);
  const current = bullets(result.playbook);
  // what the playbook lines claim beyond this machine's counting decides nothing (confirmedCounters.ts)
  const standings = ruleStandings(
    records,
    current.map((b) => ({
      id: b.id,
      counters: confirmCounters(b, local(b.id)),
      flagged: false,
      pinned: pinned.has(b.id),
    })),
    staleAfterRuns,
  );
  const ops = lifecycleOps(
    current.map((b) => {
      const standing = standings.get(b.id) as RuleStanding;
      return { ...b, ...standing.counters.confirmed, pinned: pinned.has(b.id), standing };
    }),
    wordsByRule(records),
  ).filter((op) => veto(op) === undefined);
  const lifecycle = applyDelta(result.playbook, { ops, tags: [] });
  // then the budget, on what the run and its lifecycle left: the rules this run adds stay, as do the pinned ones
  const added = result.applied
    .filter((a) => a.status === 'applied' && a.op.op === 'ADD' && a.id)
    .map((a) => a.id as string);
  const budget = budgetOps(lifecycle.playbook, budgetTokens, new Set([...added, ...pinned]), standings, added);
  if (budget.warning) result.record.warnings.push(budget.warning);
  const trimmed = applyDelta(lifecycle.playbook, { ops: budget.ops.filter((op) => veto(op) === undefined), tags: [] });
  lifecycle.playbook = trimmed.playbook;
  lifecycle.applied.push(...trimmed.applied);
  if (lifecycle.applied.length === 0) return;
  result.playbook = lifecycle.playbook;
  result.applied.push(...lifecycle.applied);
  const ok = lifecycle.applied.filter((a) => a.status === 'applied');
  pushApplyNode(
    result,
    'lifecycle',
    `${ok.length} change(s) the rules' standing and the budget ask for`,
    lifecycle.applied,
  );
}
