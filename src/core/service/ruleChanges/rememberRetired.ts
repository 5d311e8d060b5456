import type { Proposal } from '../../assets/proposal';
import { parsePlaybook } from '../../playbook/markdown';
import { findBullet } from '../../playbook/model';
import { ReviewMemory, type RetiredRule } from '../../store/reviewMemory';
import { RuleLedger } from '../../store/ruleLedger';
import type { WorkspaceState } from '../../store/workspaceState';

/**
 * The rules an accept retired: its accepted removals whose rule is gone from the playbook now, each with the text and
 * section it had and the sessions it was judged on (those the removal names, and those counted for or against it).
 */
export function retiredBy(
  proposal: Proposal,
  acceptedRuleIds: readonly string[],
  playbookPath: string,
  playbookNow: string,
  countedSessions: (ruleId: string) => readonly string[],
): RetiredRule[] {
  const before = proposal.files.find((f) => f.path === playbookPath)?.before;
  const old = before === undefined ? undefined : parsePlaybook(before);
  const now = parsePlaybook(playbookNow);
  const out: RetiredRule[] = [];
  for (const { ruleId, op } of proposal.ops) {
    if (op.op !== 'REMOVE' || !acceptedRuleIds.includes(ruleId) || findBullet(now, ruleId)) continue;
    const found = old && findBullet(old, ruleId);
    const content = found?.bullet.content ?? proposal.rules.find((r) => r.id === ruleId)?.content;
    if (!content) continue;
    out.push({
      id: ruleId,
      content,
      ...(found ? { section: found.section.title } : {}),
      traceIds: [...new Set([...op.support.map((s) => s.traceId), ...countedSessions(ruleId)])],
      reason: op.reason,
    });
  }
  return out;
}

/** After an accept: remembers the rules it retired, so the next runs do not bring them back on the same evidence. */
export async function rememberRetired(
  state: WorkspaceState,
  proposal: Proposal,
  acceptedRuleIds: readonly string[],
  playbookPath: string,
  playbookNow: string,
): Promise<void> {
  if (!proposal.ops.some((o) => o.op.op === 'REMOVE' && acceptedRuleIds.includes(o.ruleId))) return;
  const ledger = await RuleLedger.load(state, proposal.workspace);
  const retired = retiredBy(proposal, acceptedRuleIds, playbookPath, playbookNow, (id) => ledger.sessionKeys(id));
  await new ReviewMemory(state, proposal.workspace).rememberRetired(retired);
}
