import { describeClaim } from '../../core/learn/rules/confirmedCounters';
import * as vscode from 'vscode';
import type { RuleStage } from '../../core/learn/rules/ruleStanding';
import { playbookRules, type PlaybookRule } from '../../core/service/playbookRules';
import { workspaceFolderPaths, type Services } from '../services';
import { readWorkspacePlaybook } from '../playbookFile';
import { readSettings } from '../settings';
import { COMMANDS } from '../commandIds';

type Node = { kind: 'section'; title: string; rules: PlaybookRule[] } | { kind: 'rule'; rule: PlaybookRule };

/** The workspace playbook's rules by section, with their ACE counters, stage and flags (as the helpfulness panel). */
export class RulesView implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: Node): Promise<Node[]> {
    if (element) return element.kind === 'section' ? element.rules.map((rule) => ({ kind: 'rule', rule })) : [];
    const [workspace] = workspaceFolderPaths();
    if (!workspace) return [];
    const playbook = await readWorkspacePlaybook(workspace);
    if (!playbook) return [];
    const { staleAfterRuns } = readSettings(vscode.Uri.file(workspace));
    const { rules } = await playbookRules(this.services.state, workspace, playbook.text, staleAfterRuns);
    const sections: Array<Extract<Node, { kind: 'section' }>> = [];
    for (const rule of rules) {
      const last = sections[sections.length - 1];
      if (last?.title === rule.section) last.rules.push(rule);
      else sections.push({ kind: 'section', title: rule.section, rules: [rule] });
    }
    return sections;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'section') {
      const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${node.rules.length}`;
      return item;
    }
    const { rule } = node;
    const item = new vscode.TreeItem(rule.content);
    item.contextValue = rule.pinned ? 'combee.rulePinned' : 'combee.rule';
    const flagged =
      rule.flags.length > 0 ? ` · flagged (${rule.flags.map((f) => f.kind).join(', ')}), not in AGENTS.md` : '';
    item.description = `${rule.id} · ${rule.standing.chips.filter((c) => c !== 'flagged').join(', ')} · +${rule.helpful} −${rule.harmful}${flagged}`;
    const claim = describeClaim(rule.standing.counters);
    item.tooltip = `[${rule.id}] helpful=${rule.helpful} harmful=${rule.harmful} · ${rule.standing.chips.join(', ')}${claim ? `\n\nCounters ${claim}.` : ''}\n\n${rule.content}${rule.flags.map((f) => `\n\n${f.kind}: ${f.reason}`).join('')}`;
    item.iconPath = new vscode.ThemeIcon(STAGE_ICONS[rule.flags.length > 0 ? 'flagged' : rule.standing.stage]);
    item.command = { command: COMMANDS.openRuleInPlaybook, title: 'Open in the playbook', arguments: [rule.id] };
    return item;
  }
}

const STAGE_ICONS: Record<RuleStage | 'flagged', string> = {
  new: 'circle-outline',
  proven: 'pass',
  contested: 'question',
  harmful: 'error',
  flagged: 'warning',
};
