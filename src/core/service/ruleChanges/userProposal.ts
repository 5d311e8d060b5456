import { PROPOSAL_VERSION, type Proposal } from '../../assets/proposal';
import { sha256 } from '../../util/hash';

/** What a change the user asked for (retire, pin, unpin a rule) holds; the rest is the same for all of them. */
export type UserChange = Pick<Proposal, 'files' | 'rules' | 'ops' | 'heldRules' | 'targets' | 'assets'>;

/**
 * A change the user asked for, as a proposal to review like any other. The same action on the same playbook is the
 * same proposal (its id is a hash of both), so asking twice does not make two.
 */
export function userProposal(
  action: string,
  ruleId: string,
  playbookText: string,
  workspace: string,
  now: Date,
  change: UserChange,
): Proposal {
  const id = `${action}-${sha256(`${ruleId}\n${playbookText}`).slice(0, 12)}`;
  return {
    version: PROPOSAL_VERSION,
    id,
    createdAt: now.toISOString(),
    workspace,
    runId: id,
    provider: 'you',
    model: `${action} ${ruleId}`,
    costUsd: 0,
    status: 'pending',
    tags: [],
    counts: [],
    reviewed: { files: [], rules: [] },
    ...change,
  };
}
