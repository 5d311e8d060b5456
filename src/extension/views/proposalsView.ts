import * as vscode from 'vscode';
import type { FileChange, Proposal, RuleChange } from '../../core/assets/proposal';
import { workspaceFolderPaths, type Services } from '../services';

type Node = { kind: 'proposal'; proposal: Proposal } | { kind: 'file'; proposal: Proposal; change: FileChange } | { kind: 'rule'; proposal: Proposal; rule: RuleChange };

/** Pending proposals → their files → the rule changes, with provider, model and run. */
export class ProposalsView implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: Node): Promise<Node[]> {
    if (!element) {
      const all = (await Promise.all(workspaceFolderPaths().map((ws) => this.services.proposals.list(ws)))).flat();
      return all.filter((p) => p.status === 'pending').map((proposal) => ({ kind: 'proposal', proposal }));
    }
    if (element.kind === 'proposal') {
      return [
        ...element.proposal.files.map((change): Node => ({ kind: 'file', proposal: element.proposal, change })),
        ...element.proposal.rules.map((rule): Node => ({ kind: 'rule', proposal: element.proposal, rule })),
      ];
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'proposal': {
        const item = new vscode.TreeItem(`Proposal ${node.proposal.createdAt.slice(0, 16).replace('T', ' ')}`, vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${node.proposal.provider} · ${node.proposal.model}`;
        item.contextValue = 'combee.proposal';
        item.iconPath = new vscode.ThemeIcon('git-pull-request');
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(node.change.path);
        item.description = node.change.kind === 'create' ? 'new file' : 'modified';
        item.iconPath = vscode.ThemeIcon.File;
        item.command = { command: 'combee.reviewProposals', title: 'Review' };
        return item;
      }
      case 'rule': {
        const item = new vscode.TreeItem(`${node.rule.op} ${node.rule.id}`);
        item.description = node.rule.content;
        item.tooltip = `${node.rule.content ?? ''}\n\nSupported by ${node.rule.support.length} session(s): ${node.rule.support.map((s) => `${s.traceId} (steps ${s.steps.join(', ')})`).join('; ')}`;
        item.iconPath = new vscode.ThemeIcon(node.rule.op === 'REMOVE' ? 'remove' : 'add');
        return item;
      }
    }
  }
}
