import * as vscode from 'vscode';
import type { Proposal } from '../../core/assets/proposal';
import { acceptFiles, type AcceptOutcome } from '../review/accept';
import { openProposalDiff, parseProposalUri } from '../review/proposalDocuments';
import { workspaceFolderPaths, type Services } from '../services';

/** The proposal of the active diff tab, or the given id (commands can be run from the palette or a test). */
async function resolveProposal(services: Services, id?: unknown): Promise<Proposal | undefined> {
  const workspaces = workspaceFolderPaths();
  if (typeof id === 'string') {
    for (const ws of workspaces) {
      const found = await services.proposals.load(ws, id);
      if (found) return found;
    }
    return undefined;
  }
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputTextDiff) {
    const parsed = parseProposalUri(input.modified);
    if (parsed) return services.proposals.load(parsed.workspace, parsed.proposalId);
  }
  const pending = (await Promise.all(workspaces.map((ws) => services.proposals.list(ws)))).flat().filter((p) => p.status === 'pending');
  return pending[0];
}

async function closeProposalTabs(proposalId: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && parseProposalUri(t.input.modified)?.proposalId === proposalId);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

export async function acceptProposal(services: Services, id?: unknown): Promise<AcceptOutcome | undefined> {
  const proposal = await resolveProposal(services, id);
  if (!proposal) {
    void vscode.window.showInformationMessage('Combee has no pending proposal to accept.');
    return undefined;
  }
  const outcome = await acceptFiles(proposal, proposal.files);
  await services.proposals.save({ ...proposal, status: outcome.conflicts.length === 0 ? 'accepted' : 'partial' });
  await closeProposalTabs(proposal.id);
  services.notifyChanged();
  services.log.info(`accepted proposal ${proposal.id}: wrote ${outcome.written.join(', ') || 'nothing'}${outcome.conflicts.length ? `; conflicts: ${outcome.conflicts.join(', ')}` : ''}`);
  if (outcome.conflicts.length > 0) {
    void vscode.window.showWarningMessage(`Combee did not overwrite ${outcome.conflicts.join(', ')}: changed since the proposal was made. Learn again to get a fresh proposal.`);
  }
  return outcome;
}

export async function rejectProposal(services: Services, id?: unknown): Promise<boolean> {
  const proposal = await resolveProposal(services, id);
  if (!proposal) return false;
  await services.proposals.save({ ...proposal, status: 'rejected' });
  await closeProposalTabs(proposal.id);
  services.notifyChanged();
  services.log.info(`rejected proposal ${proposal.id}`);
  return true;
}

export async function reviewProposals(services: Services): Promise<void> {
  const pending = (await Promise.all(workspaceFolderPaths().map((ws) => services.proposals.list(ws)))).flat().filter((p) => p.status === 'pending');
  if (pending.length === 0) {
    void vscode.window.showInformationMessage('No pending Combee proposals. Run "Combee: Learn from Recent Sessions" first.');
    return;
  }
  const pick = pending.length === 1 ? { proposal: pending[0] } : await vscode.window.showQuickPick(
    pending.map((proposal) => ({ label: `${proposal.files.map((f) => f.path).join(', ')}`, description: `${proposal.rules.length} rule change(s) · ${proposal.provider}`, detail: `run ${proposal.runId}`, proposal })),
    { placeHolder: 'Pick a proposal to review' },
  );
  if (!pick) return;
  for (const change of pick.proposal.files) await openProposalDiff(pick.proposal, change);
}
