import * as vscode from 'vscode';
import type { FileChange, Proposal, RuleChange } from '../../core/assets/proposal';
import { workspaceFolderPaths, type Services } from '../services';

/** Tree nodes double as command arguments: each carries the ids its inline actions need. */
type Node =
  | { kind: 'proposal'; proposalId: string; proposal: Proposal }
  | { kind: 'file'; proposalId: string; path: string; change: FileChange }
  | { kind: 'rule'; proposalId: string; ruleId: string; rule: RuleChange }
  | { kind: 'held'; proposalId: string; ruleId: string; held: Proposal['heldRules'][number] };

/** Pending proposals → their files → the rule changes, with provider, model, run and cost. */
export class ProposalsView implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: Node): Promise<Node[]> {
    if (!element) {
      const all = (await Promise.all(workspaceFolderPaths().map((ws) => this.services.proposals.list(ws)))).flat();
      return all.filter((p) => (p.status === 'pending' || p.status === 'partial') && p.files.length > 0).map((proposal) => ({ kind: 'proposal', proposalId: proposal.id, proposal }));
    }
    if (element.kind === 'proposal') {
      return [
        ...element.proposal.files.map((change): Node => ({ kind: 'file', proposalId: element.proposalId, path: change.path, change })),
        ...element.proposal.rules.map((rule): Node => ({ kind: 'rule', proposalId: element.proposalId, ruleId: rule.id, rule })),
        ...element.proposal.heldRules.map((held): Node => ({ kind: 'held', proposalId: element.proposalId, ruleId: held.id, held })),
      ];
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'proposal': {
        const p = node.proposal;
        const item = new vscode.TreeItem(`Proposal ${p.createdAt.slice(0, 16).replace('T', ' ')}`, vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${p.provider} · ${p.model}${p.costUsd ? ` · $${p.costUsd.toFixed(3)}` : ''}${p.status === 'partial' ? ' · partly accepted' : ''}`;
        item.tooltip = `Run ${p.runId} in ${p.workspace}: ${p.files.length} file(s), ${p.rules.length} rule change(s)`;
        item.contextValue = 'combee.proposal';
        item.iconPath = new vscode.ThemeIcon('git-pull-request');
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(node.change.path);
        item.description = node.change.kind === 'create' ? 'new file' : 'modified';
        item.iconPath = vscode.ThemeIcon.File;
        item.resourceUri = vscode.Uri.file(node.change.path);
        item.contextValue = 'combee.proposalFile';
        item.command = { command: 'combee.openProposalFile', title: 'Show the diff', arguments: [node.proposalId, node.path] };
        return item;
      }
      case 'rule': {
        const rule = node.rule;
        const flags = rule.flags ?? [];
        const item = new vscode.TreeItem(`${rule.op} ${rule.id}`);
        const sessions = rule.support.map((s) => `- ${s.traceId} (steps ${s.steps.join(', ')})`).join('\n');
        const why = flags.map((f) => `- **${f.kind}**: ${f.reason}`).join('\n');
        item.description = flags.length > 0 ? `flagged (${flags.map((f) => f.kind).join(', ')}): ${rule.content ?? ''}` : rule.content;
        item.tooltip = new vscode.MarkdownString(`${rule.content ?? ''}\n\n${flags.length > 0 ? `**Flagged**, kept out of AGENTS.md and the other files until accepted by name:\n${why}\n\n` : ''}Supported by ${rule.support.length} session(s):\n${sessions}`);
        item.iconPath = flags.length > 0 ? new vscode.ThemeIcon('warning') : new vscode.ThemeIcon(rule.op === 'REMOVE' ? 'remove' : rule.op === 'ADD' ? 'add' : 'edit');
        item.contextValue = 'combee.proposalRule';
        // One click away: the flags and the text of the steps behind the rule.
        item.command = { command: 'combee.showRuleEvidence', title: 'Show the evidence', arguments: [node.proposalId, node.ruleId] };
        return item;
      }
      case 'held': {
        const item = new vscode.TreeItem(`HELD ${node.held.id}`);
        item.description = `flagged in the playbook (${node.held.flags.map((f) => f.kind).join(', ')}): ${node.held.content}`;
        item.tooltip = new vscode.MarkdownString(`${node.held.content}\n\nAlready in the playbook and **flagged**: kept out of AGENTS.md and the other files until accepted by name.\n${node.held.flags.map((f) => `- **${f.kind}**: ${f.reason}`).join('\n')}`);
        item.iconPath = new vscode.ThemeIcon('warning');
        item.contextValue = 'combee.proposalRule';
        item.command = { command: 'combee.showRuleEvidence', title: 'Show the evidence', arguments: [node.proposalId, node.ruleId] };
        return item;
      }
    }
  }
}
