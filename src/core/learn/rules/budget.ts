import type { DeltaOp } from '../../playbook/delta';
import { serializePlaybook } from '../../playbook/markdown';
import { withoutAnyMarks } from '../../playbook/marks';
import { bullets, findBullet, idNumber, type Playbook } from '../../playbook/model';
import { countTokens } from '../../util/tokens';
import { NO_COUNTS } from './confirmedCounters';
import type { RuleStanding } from './ruleStanding';

// The playbook has a token budget: past it, every agent's context pays for rules nobody uses (open ACE playbooks
// grow past 100K tokens). When a run's playbook is over it, the least valuable rules are proposed for retiring, each
// naming what it makes room for — never dropped silently, and never a rule this run adds or the team pinned.

export const DEFAULT_PLAYBOOK_BUDGET_TOKENS = 8000;

/** What the budget counts: the playbook's rules and text, not its marks (see marks.ts). */
export const budgetedTokens = (playbook: Playbook): number => countTokens(serializePlaybook(withoutAnyMarks(playbook)));

export interface BudgetResult {
  ops: DeltaOp[];
  /** Tokens of the playbook as the run left it, and after the proposed retirements. */
  before: number;
  after: number;
  /** Said when the budget cannot be met without touching what must stay. */
  warning?: string;
}

/**
 * Retirements that bring the playbook under `budgetTokens`: the least helpful first (confirmed helpful − harmful), then the
 * longest without evidence, then the oldest. `keep`: the rules this run adds and the pinned ones.
 */
export function budgetOps(
  playbook: Playbook,
  budgetTokens: number,
  keep: ReadonlySet<string>,
  standings: ReadonlyMap<string, RuleStanding>,
  added: readonly string[],
): BudgetResult {
  const before = budgetedTokens(playbook);
  if (before <= budgetTokens) return { ops: [], before, after: before };
  // by the counters this machine confirms: a line claiming `helpful=40` is kept over nothing (confirmedCounters.ts)
  const counted = (id: string) => standings.get(id)?.counters.confirmed ?? NO_COUNTS;
  const net = (id: string) => counted(id).helpful - counted(id).harmful;
  const candidates = bullets(playbook)
    .filter((b) => !keep.has(b.id))
    .sort(
      (a, b) =>
        net(a.id) - net(b.id) ||
        (standings.get(b.id)?.runsWithoutEvidence ?? 0) - (standings.get(a.id)?.runsWithoutEvidence ?? 0) ||
        idNumber(a.id) - idNumber(b.id),
    );
  const ops: DeltaOp[] = [];
  const left = structuredClone(playbook);
  let after = before;
  const room = added.length > 0 ? `makes room for ${added.map((id) => `[${id}]`).join(', ')}` : 'keeps it lean';
  for (const rule of candidates) {
    if (after <= budgetTokens) break;
    const found = findBullet(left, rule.id);
    if (!found) continue;
    found.section.lines.splice(found.index, 1);
    after = budgetedTokens(left);
    ops.push({
      op: 'REMOVE',
      id: rule.id,
      reason: `over the playbook's budget (${before} of ${budgetTokens} tokens): the least helpful rule (+${counted(rule.id).helpful} −${counted(rule.id).harmful}) ${room}`,
      support: [],
    });
  }
  const warning =
    after > budgetTokens
      ? `the playbook is over its budget (${after} of ${budgetTokens} tokens) with only new and pinned rules left to retire: raise combee.playbook.budgetTokens or unpin some`
      : undefined;
  return { ops, before, after, ...(warning ? { warning } : {}) };
}
