import { SHARED_HOOK_DATA_PATH } from '../../assets/enforce/agentHooks';
import { HOOK_DATA_PATH } from '../../assets/enforce/hookScript';
import { PRE_COMMIT_DATA_PATH } from '../../assets/enforce/preCommit';
import type { Proposal } from '../../assets/proposal';
import { describeFlags } from '../../trust/kinds';
import { describeEnforced } from '../learnRun/proposeEnforcement';

/** One enforcement as the review shows it: what it stops, for which rule, and where it came from. */
export interface EnforcementItem {
  ruleId: string;
  /** `held`: offered, but held back (team-only): not marked and not in the hook files. */
  state: 'enforced' | 'held';
  content: string;
  /** "a Claude Code hook stops `npm install`", or why it is held. */
  stops: string;
  /** Offered by this run (with how it did on the sessions), or from a mark already in the playbook. */
  origin: string;
  /** The proposal's file that carries it (the hook's rules), to show; none for a held one. */
  file?: string;
}

/**
 * Every enforcement the proposal's hook files carry and every one held back, for the review: a hook stops commands
 * before they run, and a mark in the playbook is text anyone with the repository can write, so each is said.
 */
export function enforcementItems(proposal: Pick<Proposal, 'enforced' | 'enforcements'>): EnforcementItem[] {
  const offered = proposal.enforcements ?? [];
  const enforced = (proposal.enforced ?? []).map((e): EnforcementItem => {
    const own = offered.find((o) => o.ruleId === e.ruleId && o.mark);
    return {
      ruleId: e.ruleId,
      state: 'enforced',
      content: e.content,
      stops: describeEnforced(e),
      file: e.claudeCode ? HOOK_DATA_PATH : e.hooks ? SHARED_HOOK_DATA_PATH : PRE_COMMIT_DATA_PATH,
      origin: own
        ? `offered by this run: ${own.explanation}`
        : 'from an enforced mark already in the playbook (its combee:marks section), not offered by this run (a mark is text anyone with the repository can write: check it is your team’s)',
    };
  });
  const held = offered
    .filter((o) => (o.flags ?? []).length > 0)
    .map((o): EnforcementItem => ({
      ruleId: o.ruleId,
      state: 'held',
      content: o.content,
      stops: `would stop: ${describeEnforced(o)}`,
      origin: `held, not marked nor in the hook files: ${describeFlags(o.flags ?? [])}`,
    }));
  return [...enforced, ...held];
}
