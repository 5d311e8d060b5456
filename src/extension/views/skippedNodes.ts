import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import type { SkipReason } from '../../core/trace/scan';
import { describeSkipped, skippedTotal, type Skipped } from '../../core/trace/skipped';

/** The Sessions view's first node: what the last import saw and did not import, by reason, down to sample paths. */
export type SkippedNode =
  | { kind: 'skipped'; skipped: Skipped }
  | { kind: 'skipReason'; reason: SkipReason; count: number; samples: string[] }
  | { kind: 'skippedFile'; reason: SkipReason; path: string };

const MEANING: Record<SkipReason, string> = {
  'not a session': 'named like a session file, but no reader recognizes it',
  empty: '0 bytes',
  unreadable: 'a broken link, no permission, gone while read, or its import failed',
  'special file': 'a FIFO, socket or device',
  'symbolic link loop': 'a link back into a folder already walked',
  'folder named like a session': 'a folder, not a file',
  'too large': 'too big to read whole (a JSON session or sibling file of 64 MB or more, a SQLite store over 512 MB)',
};

/** The summary node, or none when the last import took every file it saw. */
export function skippedRoot(skipped: Skipped | undefined): SkippedNode[] {
  return skipped && skippedTotal(skipped) > 0 ? [{ kind: 'skipped', skipped }] : [];
}

export function skippedChildren(node: SkippedNode): SkippedNode[] {
  if (node.kind === 'skipped') {
    return (Object.entries(node.skipped.skipped) as Array<[SkipReason, number]>).map(([reason, count]) => ({
      kind: 'skipReason',
      reason,
      count,
      samples: node.skipped.skippedSamples[reason] ?? [],
    }));
  }
  if (node.kind === 'skipReason')
    return node.samples.map((path) => ({ kind: 'skippedFile', reason: node.reason, path }));
  return [];
}

export function skippedItem(node: SkippedNode): vscode.TreeItem {
  switch (node.kind) {
    case 'skipped': {
      const total = skippedTotal(node.skipped);
      const item = new vscode.TreeItem(
        `${total} file${total === 1 ? '' : 's'} not imported`,
        vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.description = 'last import';
      item.tooltip = `${describeSkipped(node.skipped) ?? ''}\n\nThe Combee log lists them as each import ends.`;
      item.iconPath = new vscode.ThemeIcon('circle-slash');
      item.contextValue = 'combee.skipped';
      return item;
    }
    case 'skipReason': {
      const item = new vscode.TreeItem(
        `${node.count} ${node.reason}`,
        node.samples.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.description = MEANING[node.reason];
      const more = node.count - node.samples.length;
      item.tooltip = `${MEANING[node.reason]}:\n${node.samples.join('\n')}${more > 0 ? `\n…and ${more} more` : ''}`;
      item.iconPath = new vscode.ThemeIcon(node.reason === 'too large' ? 'file-binary' : 'circle-slash');
      item.contextValue = 'combee.skipReason';
      return item;
    }
    case 'skippedFile': {
      const item = new vscode.TreeItem(basename(node.path));
      item.description = dirname(node.path);
      item.tooltip = `${node.path}\n${node.reason}: ${MEANING[node.reason]}`;
      // no click to open: it may be huge, a FIFO or a loop
      item.iconPath = vscode.ThemeIcon.File;
      item.contextValue = 'combee.skippedFile';
      return item;
    }
  }
}
