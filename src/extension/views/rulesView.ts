import * as vscode from 'vscode';
import { ReviewMemory } from '../../core/store/reviewMemory';
import { parsePlaybook } from '../../core/playbook/markdown';
import type { Bullet } from '../../core/playbook/model';
import { holdBack } from '../../core/trust/hold';
import type { RuleFlag } from '../../core/trust/kinds';
import { tryResolveInWorkspace } from '../../core/trust/workspacePath';
import { readTextIfExists } from '../../core/util/io';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';

type Node =
  | { kind: 'section'; title: string; bullets: Array<{ bullet: Bullet; flags: RuleFlag[] }> }
  | { kind: 'bullet'; bullet: Bullet; flags: RuleFlag[] };

/** The workspace playbook's rules by section, with their ACE counters. */
export class RulesView implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: Node): Promise<Node[]> {
    if (element)
      return element.kind === 'section'
        ? element.bullets.map(({ bullet, flags }) => ({ kind: 'bullet', bullet, flags }))
        : [];
    const [workspace] = workspaceFolderPaths();
    if (!workspace) return [];
    const path = tryResolveInWorkspace(workspace, readSettings().playbookPath);
    const text = path === undefined ? undefined : await readTextIfExists(path);
    if (text === undefined) return [];
    const playbook = parsePlaybook(text);
    // The same screen as every render: a held rule is in the playbook but in no other file.
    const held = holdBack({
      playbook,
      rules: [],
      isTrusted: ReviewMemory.trusts(await new ReviewMemory(this.services.state, workspace).load()),
    });
    const flagsOf = (id: string) => held.existing.find((h) => h.id === id)?.flags ?? [];
    return playbook.sections
      .map((s): Node => ({
        kind: 'section',
        title: s.title,
        bullets: s.lines.flatMap((l) =>
          l.kind === 'bullet' ? [{ bullet: l.bullet, flags: flagsOf(l.bullet.id) }] : [],
        ),
      }))
      .filter((n) => n.kind === 'section' && n.bullets.length > 0);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'section') {
      const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${node.bullets.length}`;
      return item;
    }
    const item = new vscode.TreeItem(node.bullet.content);
    item.contextValue = 'combee.rule';
    const flagged =
      node.flags.length > 0 ? ` · flagged (${node.flags.map((f) => f.kind).join(', ')}), not in AGENTS.md` : '';
    item.description = `${node.bullet.id} · +${node.bullet.helpful} −${node.bullet.harmful}${flagged}`;
    item.tooltip = `[${node.bullet.id}] helpful=${node.bullet.helpful} harmful=${node.bullet.harmful}\n\n${node.bullet.content}${node.flags.map((f) => `\n\n${f.kind}: ${f.reason}`).join('')}`;
    item.iconPath = new vscode.ThemeIcon(
      node.flags.length > 0 || node.bullet.harmful > node.bullet.helpful ? 'warning' : 'check',
    );
    return item;
  }
}
