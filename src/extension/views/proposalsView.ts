import * as vscode from 'vscode';
import { sessionLabel } from '../../core/trace/transcript';
import { describeContextCost } from '../../core/assets/contextCost';
import type { Proposal } from '../../core/assets/proposal';
import { decisionNoteHead } from '../../core/learn/rules/priorDecisions';
import { describeStatus, proposalStatus } from '../../core/service/review/status';
import { enforcementItems, type EnforcementItem } from '../../core/service/review/enforcementItems';
import { isOpen, reviewItems, type ItemState, type ReviewedFile, type ReviewedRule } from '../../core/assets/review';
import { tryResolveInWorkspace } from '../../core/trust/workspacePath';
import { escapeMarkdown, figuresForRule } from '../../core/eval/render';
import { proposedRuleTooltip } from './ruleTooltip';
import { workspaceFolderPaths, type Services } from '../services';
import { COMMANDS } from '../commandIds';
import { readWorkspaceFile } from '../../core/service/proposalFiles';
import { openConflicts, type OpenConflict } from '../../core/service/review/teamConflicts';
import { conflictBody } from '../review/conflictComments';

/** Tree nodes double as command arguments: each carries the ids its inline actions need. */
type Node =
  | { kind: 'proposal'; proposalId: string; proposal: Proposal }
  | { kind: 'file'; proposalId: string; path: string; file: ReviewedFile; workspace: string }
  | { kind: 'rule'; proposalId: string; ruleId: string; rule: ReviewedRule; proposal: Proposal }
  | { kind: 'held'; proposalId: string; ruleId: string; held: Proposal['heldRules'][number] }
  | { kind: 'enforcement'; proposalId: string; ruleId: string; enforcement: EnforcementItem }
  | { kind: 'conflict'; proposalId: string; ruleId: string; conflict: OpenConflict; workspace: string };

/** Decided items get their own contextValue: the accept and reject actions (package.json menus) are for pending ones. */
const suffix = (state: ItemState) => (state === 'pending' ? '' : `.${state}`);
const STATE_ICONS: Record<Exclude<ItemState, 'pending'>, vscode.ThemeIcon> = {
  accepted: new vscode.ThemeIcon('check', new vscode.ThemeColor('testing.iconPassed')),
  rejected: new vscode.ThemeIcon('close', new vscode.ThemeColor('disabledForeground')),
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 rules and 1 file to review", then what was decided ("· 2 rules accepted · 1 rejected"). */
export function pendingSummary(proposal: Proposal): string {
  const decided = proposal.reviewed.rules;
  const accepted = decided.filter((r) => r.decision === 'accepted').length;
  const rejected = decided.length - accepted;
  return [
    describeStatus(proposalStatus(proposal)),
    ...(accepted > 0 ? [`${plural(accepted, 'rule')} accepted`] : []),
    ...(rejected > 0 ? [`${plural(rejected, 'rule')} rejected`] : []),
  ].join(' · ');
}

/** Open proposals → their files → the rule changes, each pending, accepted or rejected; provider, model and cost. */
export class ProposalsView implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  /** A rule's tooltip names its sessions by title, agent and date, read from the store when it is first shown. */
  async resolveTreeItem(item: vscode.TreeItem, node: Node): Promise<vscode.TreeItem> {
    if (node.kind !== 'rule' || node.rule.state !== 'pending' || !node.rule.rule) return item;
    const change = node.rule.rule;
    const sessions = await Promise.all(
      change.support.map(async (s) => {
        const trace = await this.services.store.loadTrace(s.traceId);
        const named = trace ? sessionLabel(trace) : `${s.traceId} (not in the store any more)`;
        return `${named}, step${s.steps.length === 1 ? '' : 's'} ${s.steps.join(', ')}`;
      }),
    );
    const markdown = proposedRuleTooltip({
      content: change.content ?? '',
      flags: change.flags ?? [],
      notes: change.notes ?? [],
      sessions,
      people: change.corroboration?.people ?? 0,
      backtest: this.backtestLine(node.proposal, change.id, change.content),
    });
    // theme icons on: the notes' $(info) is a codicon, which every font shows
    item.tooltip = new vscode.MarkdownString(markdown, true);
    return item;
  }

  /** The latest backtest's figures for a proposed rule it learned too (the same text or the same lesson key). */
  private backtestLine(proposal: Proposal, ruleId: string, content: string | undefined): string | undefined {
    const report = this.services.backtestDocuments?.report(proposal.workspace);
    const op = proposal.ops.find((o) => o.ruleId === ruleId)?.op;
    return report && figuresForRule(report, { content, key: op?.key })?.line;
  }

  async getChildren(element?: Node): Promise<Node[]> {
    if (!element) {
      const all = (await Promise.all(workspaceFolderPaths().map((ws) => this.services.proposals.list(ws)))).flat();
      return all.filter(isOpen).map((proposal) => ({ kind: 'proposal', proposalId: proposal.id, proposal }));
    }
    if (element.kind === 'proposal') {
      const { files, rules } = reviewItems(element.proposal);
      return [
        ...files.map((file): Node => ({
          kind: 'file',
          proposalId: element.proposalId,
          path: file.path,
          file,
          workspace: element.proposal.workspace,
        })),
        ...rules.map((rule): Node => ({
          kind: 'rule',
          proposalId: element.proposalId,
          ruleId: rule.id,
          rule,
          proposal: element.proposal,
        })),
        // a held rule whose retirement the proposal offers is decided on that row
        ...element.proposal.heldRules
          .filter((held) => !rules.some((r) => r.id === held.id))
          .map((held): Node => ({
            kind: 'held',
            proposalId: element.proposalId,
            ruleId: held.id,
            held,
          })),
        // what the hook files stop is said where they are reviewed
        ...enforcementItems(element.proposal).map((enforcement): Node => ({
          kind: 'enforcement',
          proposalId: element.proposalId,
          ruleId: enforcement.ruleId,
          enforcement,
        })),
        // conflicts with the team's own text, and lessons they kept out: rows of their own, not only a log line
        ...openConflicts(element.proposal, (rel) => readWorkspaceFile(element.proposal.workspace, rel)).map(
          (conflict): Node => ({
            kind: 'conflict',
            proposalId: element.proposalId,
            ruleId: conflict.ruleId,
            conflict,
            workspace: element.proposal.workspace,
          }),
        ),
      ];
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'proposal': {
        const p = node.proposal;
        const item = new vscode.TreeItem(
          `Proposal ${p.createdAt.slice(0, 16).replace('T', ' ')}`,
          vscode.TreeItemCollapsibleState.Expanded,
        );
        item.description = `${p.provider} · ${p.model}${p.costUsd ? ` · $${p.costUsd.toFixed(3)}` : ''} · ${pendingSummary(p)}`;
        item.tooltip = [
          `Run ${p.runId} in ${p.workspace}: ${pendingSummary(p)}`,
          ...(p.contextCost?.length ? [`Context cost: ${describeContextCost(p.contextCost)}.`] : []),
        ].join('\n');
        item.contextValue = 'combee.proposal';
        item.iconPath = new vscode.ThemeIcon('git-pull-request');
        return item;
      }
      case 'file':
        return fileItem(node);
      case 'rule':
        return ruleItem(node);
      case 'enforcement':
        return enforcementItem(node);
      case 'conflict':
        return conflictItem(node);
      case 'held': {
        const item = new vscode.TreeItem(`HELD ${node.held.id}`);
        item.description = `flagged in the playbook (${node.held.flags.map((f) => f.kind).join(', ')}): ${node.held.content}`;
        item.tooltip = new vscode.MarkdownString(
          `${escapeMarkdown(node.held.content)}\n\nAlready in the playbook and **flagged**: kept out of AGENTS.md and the other files until accepted by name.\n${node.held.flags.map((f) => `- **${f.kind}**: ${escapeMarkdown(f.reason)}`).join('\n')}`,
        );
        item.iconPath = new vscode.ThemeIcon('warning');
        item.contextValue = 'combee.proposalRule';
        item.command = {
          command: COMMANDS.showRuleEvidence,
          title: 'Show the evidence',
          arguments: [node.proposalId, node.ruleId],
        };
        return item;
      }
    }
  }
}

function fileItem(node: Extract<Node, { kind: 'file' }>): vscode.TreeItem {
  const { file } = node;
  const item = new vscode.TreeItem(file.path);
  const what = file.kind === 'create' ? 'new file' : 'modified';
  item.description = file.state === 'pending' ? what : `${file.state} (${what})`;
  item.iconPath = file.state === 'pending' ? vscode.ThemeIcon.File : STATE_ICONS[file.state];
  item.resourceUri = vscode.Uri.file(file.path);
  item.contextValue = `combee.proposalFile${suffix(file.state)}`;
  if (file.state === 'pending') {
    item.command = {
      command: COMMANDS.openProposalFile,
      title: 'Show the diff',
      arguments: [node.proposalId, node.path],
    };
  } else {
    // nothing of it is left to review: the click opens the file as written
    const path = tryResolveInWorkspace(node.workspace, file.path);
    item.tooltip = `${file.path}: ${file.state}; nothing of it is left to review`;
    if (path !== undefined)
      item.command = { command: 'vscode.open', title: 'Open the file', arguments: [vscode.Uri.file(path)] };
  }
  return item;
}

function enforcementItem(node: Extract<Node, { kind: 'enforcement' }>): vscode.TreeItem {
  const { enforcement: e } = node;
  const item = new vscode.TreeItem(`${e.state === 'held' ? 'HELD ENFORCEMENT' : 'ENFORCED'} ${e.ruleId}`);
  item.description = `${e.stops} · ${e.content}`;
  item.tooltip = new vscode.MarkdownString(
    `${escapeMarkdown(e.content)}\n\n**${escapeMarkdown(e.stops)}**.\n\n${escapeMarkdown(e.origin)}`,
  );
  item.iconPath = new vscode.ThemeIcon(e.state === 'held' ? 'warning' : 'shield');
  item.contextValue = 'combee.proposalEnforcement';
  if (e.file)
    item.command = {
      command: COMMANDS.openProposalFile,
      title: 'Show the diff',
      arguments: [node.proposalId, e.file],
    };
  return item;
}

function ruleItem(node: Extract<Node, { kind: 'rule' }>): vscode.TreeItem {
  const { rule } = node;
  const item = new vscode.TreeItem(`${rule.held ? 'HELD' : (rule.op ?? 'RULE')} ${rule.id}`);
  item.contextValue = `combee.proposalRule${suffix(rule.state)}`;
  if (rule.state !== 'pending' || !rule.rule) {
    item.description = `${rule.state}: ${rule.content ?? ''}`;
    item.tooltip = `${rule.content ?? ''}\n\n${rule.state === 'accepted' ? 'Accepted: in the playbook.' : 'Rejected: not proposed again from the same evidence.'}`;
    item.iconPath = rule.state === 'pending' ? undefined : STATE_ICONS[rule.state];
    return item;
  }
  const change = rule.rule;
  const flags = change.flags ?? [];
  // the lint's notes, but the budget line every rule has, are worth a glance before the text
  const heads = (change.notes ?? [])
    .filter((n) => !/token\(s\); the playbook is/.test(n))
    .map((n) => decisionNoteHead(n) ?? n.split(':')[0]);
  const noted = heads.length > 0 ? `${heads.join('; ')} · ` : '';
  // several developers' sessions behind a rule is worth seeing before its text
  const people = change.corroboration?.people ?? 0;
  const corroborated = people >= 2 ? `${people} people · ` : '';
  item.description =
    flags.length > 0
      ? `flagged (${flags.map((f) => f.kind).join(', ')}): ${change.content ?? ''}`
      : `${corroborated}${noted}${change.content ?? ''}`;
  // left undefined: resolveTreeItem names the sessions by title, agent and date when the tooltip is first shown
  item.tooltip = undefined;
  item.iconPath =
    flags.length > 0
      ? new vscode.ThemeIcon('warning')
      : new vscode.ThemeIcon(change.op === 'REMOVE' ? 'remove' : change.op === 'ADD' ? 'add' : 'edit');
  // One click away: the flags and the text of the steps behind the rule.
  item.command = {
    command: COMMANDS.showRuleEvidence,
    title: 'Show the evidence',
    arguments: [node.proposalId, node.ruleId],
  };
  return item;
}

function conflictItem(node: Extract<Node, { kind: 'conflict' }>): vscode.TreeItem {
  const { conflict } = node;
  const where = `${conflict.path}:${conflict.lineNumber + 1}`;
  const item = new vscode.TreeItem(
    conflict.outcome === 'overrules' ? `CONFLICT ${conflict.ruleId}` : `LEFT OUT: ${conflict.content}`,
  );
  item.description =
    conflict.outcome === 'overrules'
      ? `contradicts ${where}: "${conflict.line}"`
      : `${where} says otherwise: "${conflict.line}"`;
  item.tooltip = new vscode.MarkdownString(conflictBody(conflict));
  item.iconPath = new vscode.ThemeIcon('comment-discussion');
  item.contextValue = `combee.teamConflict.${conflict.outcome}`;
  const path = tryResolveInWorkspace(node.workspace, conflict.path);
  // the click opens the team's line, where the review comment is
  if (path !== undefined)
    item.command = {
      command: 'vscode.open',
      title: 'Open the line',
      arguments: [
        vscode.Uri.file(path),
        { selection: new vscode.Range(conflict.lineNumber, 0, conflict.lineNumber, 0) },
      ],
    };
  return item;
}
