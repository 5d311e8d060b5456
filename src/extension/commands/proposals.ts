import * as vscode from 'vscode';
import type { FileChange, Proposal } from '../../core/assets/proposal';
import { ASSET_TARGETS, type AssetTarget } from '../../core/assets/targets';
import { rebaseChange } from '../../core/assets/rebase';
import { planReview, type ReviewDeps, type ReviewPlan, type ReviewResult } from '../../core/service/review/decide';
import { readWorkspaceFile } from '../../core/service/proposalFiles';
import { conflictsDetail, openConflicts } from '../../core/service/review/teamConflicts';
import { describeAction, UndoStack } from '../../core/service/review/undo';
import { describeFlags } from '../../core/trust/kinds';
import { resolveInWorkspace, tryResolveInWorkspace } from '../../core/trust/workspacePath';
import { draftUri } from '../review/editDrafts';
import { evidenceUri } from '../review/evidenceDocument';
import { workspaceEditWriter, type AcceptOutcome } from '../review/accept';
import { openProposalDiff, parseProposalUri } from '../review/proposalDocuments';
import { workspaceFolderPaths, type Services } from '../services';
import { isSetByUser, readSettings } from '../settings';
import { pickPendingFile, pickPendingRule } from './pickPending';
import { allowedInThisWorkspace } from '../trust';

/** The active proposal diff tab's proposal and file, if any. */
function activeProposalFile(): { workspace: string; proposalId: string; path: string } | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
  const parsed = parseProposalUri(input.modified);
  return parsed && { workspace: parsed.workspace, proposalId: parsed.proposalId, path: parsed.path };
}

/** The proposal of the given id (palette, views, tests), else of the active diff tab, else the newest pending one. */
async function resolveProposal(services: Services, id?: unknown): Promise<Proposal | undefined> {
  const workspaces = workspaceFolderPaths();
  if (typeof id === 'string') {
    for (const ws of workspaces) {
      const found = await services.proposals.load(ws, id);
      if (found) return found;
    }
    return undefined;
  }
  const active = activeProposalFile();
  if (active) return services.proposals.load(active.workspace, active.proposalId);
  const pending = (await Promise.all(workspaces.map((ws) => services.proposals.list(ws))))
    .flat()
    .filter((p) => p.status === 'pending' || p.status === 'partial');
  return pending[0];
}

async function closeProposalTabs(proposalId: string, path?: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => {
      if (!(t.input instanceof vscode.TabInputTextDiff)) return false;
      const parsed = parseProposalUri(t.input.modified);
      return parsed?.proposalId === proposalId && (path === undefined || parsed.path === path);
    });
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

/**
 * After an accept or a reject: open diffs of the proposal show what is left of it (refreshed in place); only the tabs
 * of files no longer in it close.
 */
async function settleTabs(services: Services, proposalId: string, workspace: string): Promise<void> {
  const latest = await services.proposals.load(workspace, proposalId);
  const open =
    latest && (latest.status === 'pending' || latest.status === 'partial')
      ? new Set(latest.files.map((f) => f.path))
      : new Set<string>();
  const gone: vscode.Tab[] = [];
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (!(tab.input instanceof vscode.TabInputTextDiff)) continue;
    const parsed = parseProposalUri(tab.input.modified);
    if (parsed?.proposalId !== proposalId) continue;
    if (open.has(parsed.path)) services.proposalDocuments?.refresh(tab.input.modified);
    else gone.push(tab);
  }
  if (gone.length > 0) await vscode.window.tabGroups.close(gone);
}

/**
 * Which assets to render and how, from the user's settings (confined to the workspace). A part of a proposal is
 * rendered for the targets the proposal was (they follow the workspace's agents when the setting is unset).
 */
export function assetSettings(proposal?: Proposal) {
  const settings = readSettings();
  const own = proposal?.targets?.filter((t): t is AssetTarget => (ASSET_TARGETS as readonly string[]).includes(t));
  return {
    targets: own && !isSetByUser('assetTargets') ? own : settings.assetTargets,
    budgetTokens: settings.rulesBudget,
    skillRoots: settings.skillRoots,
    playbookPath: settings.playbookPath,
  };
}

function reviewDeps(services: Services, proposal: Proposal): ReviewDeps {
  return {
    store: services.store,
    proposals: services.proposals,
    writer: workspaceEditWriter(proposal.workspace),
    warn: (m) => services.log.warn(m),
    // only a proposal made before it kept its own settings is rendered with the window's
    fallbackAssets: assetSettings(proposal),
  };
}

/** The command's answer, as the commands returned it before the review service (tests read it). */
function outcomeOf(result: ReviewResult): AcceptOutcome {
  const { outcome } = result;
  return {
    written: outcome.written,
    refused: outcome.refused,
    rebased: outcome.rebased,
    conflicts: outcome.conflicts.map((c) => c.path),
    conflictReasons: outcome.conflicts,
    alreadyApplied: outcome.alreadyApplied,
    writes: outcome.writes.map((w) => ({
      ...w,
      uri: vscode.Uri.file(resolveInWorkspace(result.proposal.workspace, w.path)),
    })),
  };
}

const ruleList = (ids: string[]) => (ids.length === 1 ? `rule ${ids[0]}` : `rules ${ids.join(', ')}`);

/** What a decision did, in one sentence: the files it wrote or dropped and the rules it accepted or turned down. */
function decisionMessage(result: ReviewResult): string {
  const { plan, outcome } = result;
  const wrote = outcome.written;
  const taken = [...plan.accepting.map((r) => r.id), ...plan.acceptingHeld.map((h) => h.id)];
  const dropped = plan.filesDecided.filter((d) => d.decision === 'rejected').map((d) => d.change.path);
  const parts = [
    ...(wrote.length > 0
      ? [
          `wrote ${wrote.join(', ')}${outcome.rebased.length ? ` (re-based onto your edits: ${outcome.rebased.join(', ')})` : ''}`,
        ]
      : plan.files.length > 0
        ? ['the files already held these changes']
        : []),
    ...(taken.length > 0 ? [`accepted ${ruleList(taken)}`] : []),
    ...(plan.rejecting.length > 0
      ? [`turned down ${ruleList(plan.rejecting.map((r) => r.id))} (not proposed again)`]
      : []),
    ...(plan.rejectingHeld.length > 0
      ? [
          `turned down ${ruleList(plan.rejectingHeld.map((h) => h.id))} already in the playbook (kept out of the other files)`,
        ]
      : []),
    ...(dropped.length > 0 ? [`dropped ${dropped.join(', ')}`] : []),
  ];
  return `Combee ${describeAction(plan.action, plan.proposal)}${parts.length ? `: ${parts.join('; ')}` : ''}.`;
}

/** Says what a decision did, with Undo; refusals and conflicts get their own message. */
function announce(services: Services, result: ReviewResult): void {
  const { plan, outcome, proposal } = result;
  const what = describeAction(plan.action, plan.proposal);
  if (plan.refused) {
    void vscode.window.showInformationMessage(`Combee: ${plan.refused}.`);
    services.log.info(`${what}: refused: ${plan.refused}`);
    return;
  }
  for (const { reason } of outcome.refused)
    void vscode.window.showErrorMessage(`Combee did not write a file of proposal ${proposal.id}: ${reason}.`);
  if (outcome.conflicts.length > 0)
    void vscode.window.showWarningMessage(
      `Combee did not overwrite ${outcome.conflicts.map((c) => c.path).join(', ')}: changed where the proposal edits it since it was made, so nothing of this decision was written. Learn again for a fresh proposal.`,
    );
  if (!result.decided) {
    services.log.info(
      `not ${what}: ${[...outcome.conflicts.map((c) => c.reason), ...outcome.refused.map((r) => r.reason)].join('; ')}`,
    );
    return;
  }
  const message = decisionMessage(result);
  services.log.info(message.replace(/^Combee /, ''));
  void vscode.window.showInformationMessage(message, 'Undo').then((choice) => {
    if (choice === 'Undo') void undoLastDecision(services);
  });
}

/** Commits a planned decision, then brings the open diffs and views up to date and says what happened. */
async function commit(services: Services, plan: ReviewPlan): Promise<ReviewResult> {
  const result = await undoStackOf(services, plan.proposal.workspace).commit(reviewDeps(services, plan.proposal), plan);
  await settleTabs(services, plan.proposal.id, plan.proposal.workspace);
  services.notifyChanged();
  announce(services, result);
  return result;
}

/**
 * Accept all: every rule of the proposal, except that flagged rules are left out (and stay pending) unless
 * `includeFlagged` is true. Writing several files asks first, naming them; `confirmed === true` (tests, scripted use)
 * stands for that answer.
 */
export async function acceptProposal(
  services: Services,
  id?: unknown,
  includeFlagged?: unknown,
  confirmed?: unknown,
): Promise<AcceptOutcome | undefined> {
  if (!allowedInThisWorkspace('write accepted changes')) return undefined;
  const proposal = await resolveProposal(services, id);
  if (!proposal) {
    void vscode.window.showInformationMessage('Combee has no pending proposal to accept.');
    return undefined;
  }
  const plan = await planReview(reviewDeps(services, proposal), proposal, {
    kind: 'accept-all',
    includeFlagged: includeFlagged === true,
  });
  // every conflict with the team's own text is named before the accept
  const conflicts = openConflicts(proposal, (rel) => readWorkspaceFile(proposal.workspace, rel));
  if ((plan.files.length > 1 || conflicts.length > 0) && !plan.refused && confirmed !== true) {
    const write = `Write ${plural(plan.files.length, 'File')}`;
    const choice = await vscode.window.showInformationMessage(
      `Accept this Combee proposal?`,
      {
        modal: true,
        detail: `It writes ${plan.files.map((f) => f.path).join(', ')}${plan.leftOutFlagged.length > 0 ? ' (flagged rules left out)' : ''}. Undo Last Decision puts them back.${conflicts.length > 0 ? `\n\n${conflictsDetail(conflicts)}` : ''}`,
      },
      write,
    );
    if (choice !== write) return undefined;
  }
  const result = await commit(services, plan);
  for (const rule of plan.leftOutFlagged)
    services.log.warn(`left out flagged rule ${rule.id} of ${proposal.id}: ${describeFlags(rule.flags)}`);
  if (result.decided && plan.leftOutFlagged.length > 0)
    void vscode.window.showWarningMessage(
      `Combee left out ${plan.leftOutFlagged.length} flagged rule(s): ${plan.leftOutFlagged.map((r) => `${r.id} (${r.flags.map((f) => f.kind).join(', ')})`).join('; ')}. They stay pending: review their evidence in the Proposals view and accept them one by one.`,
    );
  return outcomeOf(result);
}

/**
 * Accept file: the file of the active diff (or the given path), decided through the rules it holds — they are
 * accepted, named in the message, and written into every file the proposal renders (an agent file never cites a rule
 * its playbook lacks). A file holding no rule is written as proposed.
 */
export async function acceptFile(services: Services, id?: unknown, path?: unknown): Promise<AcceptOutcome | undefined> {
  if (!allowedInThisWorkspace('write accepted changes')) return undefined;
  if (typeof path !== 'string' && !activeProposalFile()) {
    // from the palette, with no diff open: pick the file
    const picked = await pickPendingFile(services, 'Accept');
    if (!picked) return undefined;
    [id, path] = [picked.proposalId, picked.path];
  }
  const active = activeProposalFile();
  const proposal = await resolveProposal(services, typeof id === 'string' ? id : active?.proposalId);
  const filePath = typeof path === 'string' ? path : active?.path;
  if (!proposal || !proposal.files.some((f) => f.path === filePath)) {
    void vscode.window.showInformationMessage('Open a file of a Combee proposal (its diff) to accept it alone.');
    return undefined;
  }
  const plan = await planReview(reviewDeps(services, proposal), proposal, {
    kind: 'accept-file',
    path: filePath as string,
  });
  return outcomeOf(await commit(services, plan));
}

/**
 * Accept rule: that rule alone, rendered into every asset; the rest of the proposal is re-rendered around it. A flagged
 * rule (new, or held back from the playbook) is accepted by name after a modal confirmation showing why it was
 * flagged; `confirmed === true` (tests, scripted use) stands for that confirmation.
 */
export async function acceptRule(
  services: Services,
  id?: unknown,
  ruleId?: unknown,
  confirmed?: unknown,
): Promise<AcceptOutcome | undefined> {
  if (!allowedInThisWorkspace('write accepted changes')) return undefined;
  if (typeof ruleId !== 'string') {
    // from the palette, with no row to act on: pick the rule
    const picked = await pickPendingRule(services, 'Accept');
    if (!picked) return undefined;
    [id, ruleId] = [picked.proposalId, picked.ruleId];
  }
  const proposal = await resolveProposal(services, id);
  const held = proposal?.heldRules.find((h) => h.id === ruleId);
  if (!proposal || typeof ruleId !== 'string' || (!proposal.ops.some((o) => o.ruleId === ruleId) && !held)) {
    void vscode.window.showInformationMessage(
      'Pick a rule of a pending proposal in the Proposals view to accept it alone.',
    );
    return undefined;
  }
  const plan = await planReview(reviewDeps(services, proposal), proposal, { kind: 'accept-rules', ids: [ruleId] });
  if (plan.refused) {
    void vscode.window.showInformationMessage(`Combee: ${plan.refused}.`);
    return undefined;
  }
  // a held rule whose retirement waits is retired, not taken into the files: nothing flagged to confirm
  const flags =
    plan.acceptingHeld.find((h) => h.id === ruleId)?.flags ?? proposal.rules.find((r) => r.id === ruleId)?.flags ?? [];
  if (flags.length > 0 && confirmed !== true) {
    const choice = await vscode.window.showWarningMessage(
      `Accept flagged rule ${ruleId}?`,
      {
        modal: true,
        detail: `${flags.map((f) => `${f.kind}: ${f.reason}`).join('\n')}\n\nAccepted, it goes into AGENTS.md and every other file Combee writes, and becomes every agent's standing instruction.`,
      },
      'Accept Flagged Rule',
    );
    if (choice !== 'Accept Flagged Rule') return undefined;
  }
  const result = await commit(services, plan);
  if (result.decided && flags.length > 0)
    services.log.warn(`accepted flagged rule ${ruleId} of ${proposal.id} by name: ${describeFlags(flags)}`);
  return outcomeOf(result);
}

/** Shows a rule's flags and the text of the steps behind it (from the stored sessions), read-only. Returns its text. */
export async function showRuleEvidence(
  services: Services,
  id?: unknown,
  ruleId?: unknown,
): Promise<string | undefined> {
  const proposal = await resolveProposal(services, id);
  if (!proposal || typeof ruleId !== 'string') return undefined;
  const document = await vscode.workspace.openTextDocument(evidenceUri(proposal, ruleId));
  await vscode.window.showTextDocument(document, { preview: true });
  return document.getText();
}

/** Reject rule: dropped from the proposal and remembered, so it is not proposed again. A rule accepted is not. */
export async function rejectRule(services: Services, id?: unknown, ruleId?: unknown): Promise<boolean> {
  if (typeof ruleId !== 'string') {
    const picked = await pickPendingRule(services, 'Reject');
    if (!picked) return false;
    [id, ruleId] = [picked.proposalId, picked.ruleId];
  }
  const proposal = await resolveProposal(services, id);
  if (!proposal || typeof ruleId !== 'string') return false;
  const plan = await planReview(reviewDeps(services, proposal), proposal, { kind: 'reject-rules', ids: [ruleId] });
  if (plan.refused) {
    // said, not only logged: a reject that does nothing must not look like one that worked
    services.log.info(`rule ${ruleId} of ${proposal.id} not rejected: ${plan.refused}`);
    void vscode.window.showInformationMessage(`Combee did not reject rule ${ruleId}: ${plan.refused}.`);
    return false;
  }
  return (await commit(services, plan)).decided;
}

/**
 * Reject file: the file of the active diff, the given one, or one picked; the rules it holds are turned down with it
 * (a file is decided through its rules), and a file holding none is dropped.
 */
export async function rejectFile(services: Services, id?: unknown, path?: unknown): Promise<boolean> {
  if (typeof path !== 'string' && !activeProposalFile()) {
    const picked = await pickPendingFile(services, 'Reject');
    if (!picked) return false;
    [id, path] = [picked.proposalId, picked.path];
  }
  const active = activeProposalFile();
  const proposal = await resolveProposal(services, typeof id === 'string' ? id : active?.proposalId);
  const filePath = typeof path === 'string' ? path : active?.path;
  if (!proposal || typeof filePath !== 'string') return false;
  const plan = await planReview(reviewDeps(services, proposal), proposal, { kind: 'reject-file', path: filePath });
  if (plan.refused) {
    void vscode.window.showInformationMessage(`Combee: ${plan.refused}.`);
    return false;
  }
  return (await commit(services, plan)).decided;
}

/**
 * Reject: the whole proposal, after a modal confirmation naming what is turned down; its rule changes still waiting
 * are remembered and not proposed again. `confirmed === true` (tests, scripted use) stands for the answer.
 */
export async function rejectProposal(services: Services, id?: unknown, confirmed?: unknown): Promise<boolean> {
  const proposal = await resolveProposal(services, id);
  if (!proposal) return false;
  const plan = await planReview(reviewDeps(services, proposal), proposal, { kind: 'reject-all' });
  if (plan.refused) {
    void vscode.window.showInformationMessage(`Combee: ${plan.refused}.`);
    return false;
  }
  if (confirmed !== true) {
    const files = plan.filesDecided.map((d) => d.change.path);
    const rules = plan.rejecting.map((r) => r.id);
    const reject = 'Reject';
    const choice = await vscode.window.showWarningMessage(
      `Reject this Combee proposal: ${plural(rules.length, 'rule')} and ${plural(files.length, 'file')}?`,
      {
        modal: true,
        detail: `${rules.length > 0 ? `Turned down, not proposed again: ${rules.join(', ')}.\n` : ''}${files.length > 0 ? `Not written: ${files.join(', ')}.\n` : ''}Undo Last Decision puts it back.`,
      },
      reject,
    );
    if (choice !== reject) return false;
  }
  const result = await commit(services, plan);
  if (result.decided) await closeProposalTabs(proposal.id);
  return result.decided;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Edit before accepting: the proposed text (re-based onto the file as it is now) opens as a draft. Saving it keeps the
 * draft (auto-save included); the accept is Accept Edited, in the editor title and above the first line.
 */
export async function editProposal(services: Services, id?: unknown, path?: unknown): Promise<boolean> {
  if (!allowedInThisWorkspace('write accepted changes')) return false;
  const active = activeProposalFile();
  const proposal = await resolveProposal(services, typeof id === 'string' ? id : active?.proposalId);
  const change =
    proposal?.files.find((f) => f.path === (typeof path === 'string' ? path : active?.path)) ?? proposal?.files[0];
  if (!proposal || !change || !services.editDrafts) return false;
  const inside = tryResolveInWorkspace(proposal.workspace, change.path);
  if (inside === undefined) {
    void vscode.window.showErrorMessage(
      `Combee will not open ${change.path} for editing: it leads outside the workspace folder.`,
    );
    return false;
  }
  const current = await vscode.workspace.fs.readFile(vscode.Uri.file(inside)).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => undefined,
  );
  const rebased = current === undefined ? undefined : rebaseChange(change, current);
  if (rebased?.kind === 'conflict') {
    void vscode.window.showWarningMessage(
      `Combee cannot open the proposed ${change.path} for editing: ${rebased.reason}. Learn again for a fresh proposal.`,
    );
    return false;
  }
  const draft = { workspace: proposal.workspace, proposalId: proposal.id, path: change.path };
  const uri = draftUri(draft);
  // a draft already open keeps the user's words
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!open || !services.editDrafts.draftOf(uri))
    services.editDrafts.open(draft, current === undefined ? change.after : proposedText(change, current));
  await closeProposalTabs(proposal.id, change.path);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  void vscode.window.showInformationMessage(
    `Edit the proposed ${change.path}, then choose Accept Edited (editor title, or above the first line). Saving keeps the draft; nothing is written before you accept.`,
  );
  return true;
}

/** The draft of the given uri, else of the active editor. */
function draftDocument(services: Services, uri?: unknown) {
  const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  const draft = target && services.editDrafts?.draftOf(target);
  const document = draft && vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
  return draft && document ? { draft, document } : undefined;
}

/** Closes a draft's tabs without asking to save (it is kept in memory only), and drops it. */
async function closeDraft(services: Services, document: vscode.TextDocument): Promise<void> {
  // saving only keeps the draft; a saved document closes without a question
  if (document.isDirty) await document.save();
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === document.uri.toString());
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  services.editDrafts?.forget(document.uri);
}

/**
 * Accept Edited: the draft's text, saved or not, accepted through the review service. The rules it holds take the
 * text the user gave them in the playbook and every file; those taken out of it are turned down.
 */
export async function acceptEdited(services: Services, uri?: unknown): Promise<AcceptOutcome | undefined> {
  if (!allowedInThisWorkspace('write accepted changes')) return undefined;
  const found = draftDocument(services, uri);
  if (!found) {
    void vscode.window.showInformationMessage('Open a file with Edit Before Accepting to accept it as edited.');
    return undefined;
  }
  const { draft, document } = found;
  const proposal = await services.proposals.load(draft.workspace, draft.proposalId);
  if (!proposal) return undefined;
  const plan = await planReview(reviewDeps(services, proposal), proposal, {
    kind: 'accept-edited',
    path: draft.path,
    text: document.getText(),
  });
  const result = await commit(services, plan);
  if (result.decided) await closeDraft(services, document);
  return outcomeOf(result);
}

/** Discard Edit: the draft goes, nothing is decided. */
export async function discardEdit(services: Services, uri?: unknown): Promise<boolean> {
  const found = draftDocument(services, uri);
  if (!found) return false;
  await closeDraft(services, found.document);
  return true;
}

/** The proposed text for a file as it is now: re-based when it changed since the proposal, else left as it is. */
function proposedText(change: FileChange, current: string): string {
  const result = rebaseChange(change, current);
  return result.kind === 'unchanged' || result.kind === 'rebased' ? result.change.after : current;
}

export async function reviewProposals(services: Services): Promise<void> {
  const pending = (await Promise.all(workspaceFolderPaths().map((ws) => services.proposals.list(ws))))
    .flat()
    .filter((p) => p.status === 'pending' || p.status === 'partial');
  if (pending.length === 0) {
    void vscode.window.showInformationMessage(
      'No pending Combee proposals. Run "Combee: Learn from Recent Sessions" first.',
    );
    return;
  }
  const pick =
    pending.length === 1
      ? { proposal: pending[0] }
      : await vscode.window.showQuickPick(
          pending.map((proposal) => ({
            label: `${proposal.files.map((f) => f.path).join(', ')}`,
            description: `${proposal.rules.length} rule change(s) · ${proposal.provider}`,
            detail: `run ${proposal.runId}`,
            proposal,
          })),
          { placeHolder: 'Pick a proposal to review' },
        );
  if (!pick) return;
  for (const change of pick.proposal.files) await openProposalDiff(pick.proposal, change);
}

export async function openProposalFile(services: Services, id?: unknown, path?: unknown): Promise<void> {
  const proposal = await resolveProposal(services, id);
  const change = proposal?.files.find((f) => f.path === path);
  if (proposal && change) await openProposalDiff(proposal, change);
}

/** The workspace decided in last in this window: Undo walks its decisions back first. */
let lastDecidedIn: string | undefined;

function undoStackOf(services: Services, workspace: string): UndoStack {
  lastDecidedIn = workspace;
  return new UndoStack(services.store.dir, workspace);
}

/**
 * Combee: Undo Last Decision — walks back the newest decision (accept, reject, edit, retire, pin) of the workspace
 * decided in last, else of the first folder with one, and the one before on the next call; the stack is kept in the
 * store, so decisions made with the CLI or before a reload are walked back too. The files it wrote go back as they
 * were (edits made since are kept, re-based; where they touch what it wrote, nothing is walked back), the proposal
 * and review memory as before it. Returns what was restored, or undefined when there is nothing to undo.
 */
export async function undoLastDecision(
  services: Services,
): Promise<{ reverted: string[]; changedSince: string[] } | undefined> {
  // undo writes files as accepting does: refused alike in Restricted Mode
  if (!allowedInThisWorkspace('write accepted changes')) return undefined;
  const folders = workspaceFolderPaths();
  const candidates = [...(lastDecidedIn && folders.includes(lastDecidedIn) ? [lastDecidedIn] : []), ...folders];
  let workspace: string | undefined;
  for (const folder of candidates)
    if (await new UndoStack(services.store.dir, folder).peek()) {
      workspace = folder;
      break;
    }
  if (workspace === undefined) {
    void vscode.window.showInformationMessage('Combee has no decision to undo in this window.');
    return undefined;
  }
  const undone = await new UndoStack(services.store.dir, workspace).undo({
    store: services.store,
    proposals: services.proposals,
    writer: workspaceEditWriter(workspace),
  });
  services.notifyChanged();
  if (undone.kind === 'nothing') return undefined;
  if (undone.kind === 'changed-since') {
    const reasons = undone.changedSince.map((c) => c.reason).join('; ');
    services.log.info(`did not undo ${undone.entry.label}: ${reasons}`);
    void vscode.window.showWarningMessage(
      `Combee did not undo ${undone.entry.label}: ${reasons}. Nothing was changed: the files and the decisions must agree.`,
    );
    return { reverted: [], changedSince: undone.changedSince.map((c) => c.path) };
  }
  await settleTabs(services, undone.entry.before.id, workspace);
  const kept = undone.rebased.length ? ` (your edits since kept in ${undone.rebased.join(', ')})` : '';
  services.log.info(`undid ${undone.entry.label}: restored ${undone.reverted.join(', ') || 'no file'}${kept}`);
  void vscode.window.showInformationMessage(
    `Combee undid: ${undone.entry.label}${undone.reverted.length ? `, restoring ${undone.reverted.join(', ')}` : ''}${kept}.`,
  );
  return { reverted: undone.reverted, changedSince: [] };
}
