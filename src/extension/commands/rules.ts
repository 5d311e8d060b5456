import * as vscode from 'vscode';
import { parseBulletLine, parsePlaybook } from '../../core/playbook/markdown';
import { findBullet } from '../../core/playbook/model';
import type { Proposal } from '../../core/assets/proposal';
import { pinProposal } from '../../core/service/ruleChanges/pinRule';
import { localRuleCounts } from '../../core/service/localRuleCounts';
import { retireProposal } from '../../core/service/ruleChanges/retireRule';
import { openProposalDiff } from '../review/proposalDocuments';
import { workspaceFolderPaths, type Services } from '../services';
import { allowedInThisWorkspace } from '../trust';
import { assetSettings } from './proposals';
import { readWorkspacePlaybook } from '../playbookFile';

/** The first workspace folder whose playbook holds the rule, with the playbook's path and text; or it says none does. */
async function playbookWith(ruleId: string): Promise<{ workspace: string; path: string; text: string } | undefined> {
  for (const workspace of workspaceFolderPaths()) {
    const playbook = await readWorkspacePlaybook(workspace);
    if (playbook && findBullet(parsePlaybook(playbook.text), ruleId)) return { workspace, ...playbook };
  }
  void vscode.window.showInformationMessage(`Combee: no playbook in this window holds rule ${ruleId}.`);
  return undefined;
}

/** Opens the playbook at a rule's line; `false` when no playbook holds it. */
export async function openRuleInPlaybook(ruleId: string): Promise<boolean> {
  const found = await playbookWith(ruleId);
  if (!found) return false;
  // the rule's own line, not a line that cites it
  const line = found.text.split('\n').findIndex((l) => parseBulletLine(l)?.id === ruleId);
  const at = new vscode.Position(Math.max(0, line), 0);
  await vscode.window.showTextDocument(vscode.Uri.file(found.path), { selection: new vscode.Range(at, at) });
  return true;
}

/**
 * Combee: Retire Rule — a proposal that removes the rule from the playbook and every asset rendered from it, shown
 * as diffs; nothing is written until it is accepted. Returns the proposal's id.
 */
export async function retireRule(services: Services, ruleId: string): Promise<string | undefined> {
  if (!allowedInThisWorkspace('propose changes')) return undefined;
  const found = await playbookWith(ruleId);
  if (!found) return undefined;
  const proposal = retireProposal({
    workspace: found.workspace,
    ruleId,
    reason: 'retired by the user',
    assets: assetSettings(),
    now: new Date(),
    warn: (m) => services.log.warn(m),
    local: await localRuleCounts(services.state, found.workspace),
  });
  return proposal ? propose(services, proposal, `retiring ${ruleId}`) : undefined;
}

/**
 * Combee: Pin Rule / Unpin Rule — a proposal of the rule's pin mark in the playbook, shown as a diff; nothing
 * is written until it is accepted. Returns the proposal's id.
 */
export async function pinRule(services: Services, ruleId: string, pinned: boolean): Promise<string | undefined> {
  if (!allowedInThisWorkspace('propose changes')) return undefined;
  const found = await playbookWith(ruleId);
  if (!found) return undefined;
  const proposal = pinProposal({
    workspace: found.workspace,
    ruleId,
    pinned,
    playbookPath: assetSettings().playbookPath,
    now: new Date(),
  });
  if (!proposal) {
    void vscode.window.showInformationMessage(`Combee: rule ${ruleId} is already ${pinned ? 'pinned' : 'unpinned'}.`);
    return undefined;
  }
  return propose(services, proposal, `${pinned ? 'pinning' : 'unpinning'} ${ruleId}`);
}

/** Keeps a proposal the user asked for and opens its first diff. */
async function propose(services: Services, proposal: Proposal, what: string): Promise<string> {
  await services.proposals.save(proposal);
  services.notifyChanged();
  services.log.info(`proposed ${what} (${proposal.id}): ${proposal.files.map((f) => f.path).join(', ')}`);
  const first = proposal.files[0];
  if (first) await openProposalDiff(proposal, first);
  return proposal.id;
}
