import * as vscode from 'vscode';
import { parsePlaybook } from '../../core/playbook/markdown';
import type { Bullet } from '../../core/playbook/model';
import { tryResolveInWorkspace } from '../../core/trust/workspacePath';
import { readTextIfExists } from '../../core/util/fs';
import { workspaceFolderPaths, type Services } from '../services';
import { readSettings } from '../settings';

type Node = { kind: 'section'; title: string; bullets: Bullet[] } | { kind: 'bullet'; bullet: Bullet };

/** The workspace playbook's rules by section, with their ACE counters. */
export class RulesView implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(services: Services) {
    services.onDidChange(() => this.emitter.fire());
  }

  async getChildren(element?: Node): Promise<Node[]> {
    if (element) return element.kind === 'section' ? element.bullets.map((bullet) => ({ kind: 'bullet', bullet })) : [];
    const [workspace] = workspaceFolderPaths();
    if (!workspace) return [];
    const path = tryResolveInWorkspace(workspace, readSettings().playbookPath);
    const text = path === undefined ? undefined : await readTextIfExists(path);
    if (text === undefined) return [];
    return parsePlaybook(text).sections
      .map((s): Node => ({ kind: 'section', title: s.title, bullets: s.lines.flatMap((l) => (l.kind === 'bullet' ? [l.bullet] : [])) }))
      .filter((n) => n.kind === 'section' && n.bullets.length > 0);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'section') {
      const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${node.bullets.length}`;
      return item;
    }
    const item = new vscode.TreeItem(node.bullet.content);
    item.description = `${node.bullet.id} · +${node.bullet.helpful} −${node.bullet.harmful}`;
    item.tooltip = `[${node.bullet.id}] helpful=${node.bullet.helpful} harmful=${node.bullet.harmful}\n\n${node.bullet.content}`;
    item.iconPath = new vscode.ThemeIcon(node.bullet.harmful > node.bullet.helpful ? 'warning' : 'check');
    return item;
  }
}
