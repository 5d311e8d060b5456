import type { Proposal } from '../../assets/proposal';
import { isOpen, pendingRules } from '../../assets/review';
import { rulesInFile } from './ruleFiles';

// What a decision by keyboard can be about: every rule and file still waiting in the open proposals, as a quick pick
// lists them (the Proposals view's rows, without the view).

export interface PendingRuleItem {
  proposalId: string;
  ruleId: string;
  /** "ADD too-00002", "HELD too-00003". */
  label: string;
  /** The rule's text, after its flags when it has any. */
  description: string;
  /** Held in the playbook already (flagged), or a change this proposal makes. */
  held: boolean;
  flagged: boolean;
}

export interface PendingFileItem {
  proposalId: string;
  path: string;
  label: string;
  /** New or modified, and the rules deciding it decides. */
  description: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every rule waiting for a decision in the open proposals, in their review order: changes first, then held rules. */
export function pendingRuleItems(proposals: readonly Proposal[]): PendingRuleItem[] {
  return proposals.filter(isOpen).flatMap((proposal) => {
    const decided = new Set(proposal.reviewed.rules.map((r) => r.id));
    const changes = pendingRules(proposal).map((rule): PendingRuleItem => ({
      proposalId: proposal.id,
      ruleId: rule.id,
      label: `${rule.op} ${rule.id}`,
      description: oneLine(
        `${rule.flags.length > 0 ? `flagged (${rule.flags.map((f) => f.kind).join(', ')}): ` : ''}${rule.content ?? ''}`,
      ),
      held: false,
      flagged: rule.flags.length > 0,
    }));
    const held = proposal.heldRules
      // a held rule whose retirement waits is decided on that row
      .filter((h) => !decided.has(h.id) && !changes.some((c) => c.ruleId === h.id))
      .map((h): PendingRuleItem => ({
        proposalId: proposal.id,
        ruleId: h.id,
        label: `HELD ${h.id}`,
        description: oneLine(`flagged in the playbook (${h.flags.map((f) => f.kind).join(', ')}): ${h.content}`),
        held: true,
        flagged: true,
      }));
    return [...changes, ...held];
  });
}

/** Every file waiting for a decision in the open proposals, with the rules a decision on it takes along. */
export function pendingFileItems(proposals: readonly Proposal[]): PendingFileItem[] {
  return proposals.filter(isOpen).flatMap((proposal) => {
    const pending = pendingRules(proposal);
    return proposal.files.map((file): PendingFileItem => {
      const rules = rulesInFile(file, pending).map((r) => r.id);
      return {
        proposalId: proposal.id,
        path: file.path,
        label: file.path,
        description: `${file.kind === 'create' ? 'new file' : 'modified'}${rules.length > 0 ? ` · decides ${rules.join(', ')}` : ''}`,
      };
    });
  });
}
