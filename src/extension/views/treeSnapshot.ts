import * as vscode from 'vscode';

/** A tree node as its item shows it: what the extension tests read, since they cannot read the screen. */
export interface TreeSnapshot {
  id?: string;
  label: string;
  description?: string;
  tooltip?: string;
  /** A Markdown tooltip that renders `$(icon)` as a codicon. */
  tooltipIcons?: boolean;
  contextValue?: string;
  /** The theme icon's id (`file` for ThemeIcon.File). */
  icon?: string;
  /** What a click runs. */
  command?: { command: string; arguments: unknown[] };
  children: TreeSnapshot[];
}

/** A view's nodes and their items, `depth` levels down, through the provider itself (the view's own code path). */
export async function snapshotTree<T>(
  provider: vscode.TreeDataProvider<T>,
  depth = 3,
  element?: T,
  resolved = false,
): Promise<TreeSnapshot[]> {
  const nodes = (await provider.getChildren(element)) ?? [];
  const out: TreeSnapshot[] = [];
  for (const node of nodes) {
    const shown = await provider.getTreeItem(node);
    // as VS Code does when the pointer rests on an item whose tooltip is left for later
    const item =
      resolved && shown.tooltip === undefined && provider.resolveTreeItem
        ? ((await provider.resolveTreeItem(shown, node, new vscode.CancellationTokenSource().token)) ?? shown)
        : shown;
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip;
    out.push({
      id: item.id,
      label,
      description: typeof item.description === 'string' ? item.description : undefined,
      tooltip,
      ...(item.tooltip instanceof vscode.MarkdownString && item.tooltip.supportThemeIcons
        ? { tooltipIcons: true }
        : {}),
      contextValue: item.contextValue,
      icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
      ...(item.command ? { command: { command: item.command.command, arguments: item.command.arguments ?? [] } } : {}),
      children: depth > 1 ? await snapshotTree(provider, depth - 1, node, resolved) : [],
    });
  }
  return out;
}
