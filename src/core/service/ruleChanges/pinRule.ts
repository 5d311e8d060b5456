import { makeFileChange, type Proposal } from '../../assets/proposal';
import { withPin } from '../../playbook/marks';
import { parsePlaybook, serializePlaybook } from '../../playbook/markdown';
import { readWorkspaceFile } from '../proposalFiles';
import { userProposal } from './userProposal';
import { keptAssets } from '../review/assets';

export interface PinInput {
  workspace: string;
  ruleId: string;
  /** Pin (true) or unpin (false). */
  pinned: boolean;
  playbookPath: string;
  /** When the user asked (the proposal's date; nothing learned depends on it). */
  now: Date;
}

/**
 * Pinning a rule is a proposal too: one mark line in the playbook's marks section, as a diff to review (the team sees who
 * keeps what). No other asset changes: agents read the rule, not the pin. `undefined` when the playbook holds no such
 * rule or it is already as asked.
 */
export function pinProposal(input: PinInput): Proposal | undefined {
  const text = readWorkspaceFile(input.workspace, input.playbookPath);
  if (text === undefined) return undefined;
  const pinned = withPin(parsePlaybook(text), input.ruleId, input.pinned);
  if (!pinned) return undefined;
  const file = makeFileChange(input.playbookPath, text, serializePlaybook(pinned));
  if (!file) return undefined;
  return userProposal(input.pinned ? 'pin' : 'unpin', input.ruleId, text, input.workspace, input.now, {
    files: [file],
    rules: [],
    ops: [],
    heldRules: [],
    assets: keptAssets({ playbookPath: input.playbookPath, targets: ['playbook'] }),
  });
}
