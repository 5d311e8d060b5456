import * as vscode from 'vscode';
import {
  pendingFileItems,
  pendingRuleItems,
  type PendingFileItem,
  type PendingRuleItem,
} from '../../core/service/review/pendingItems';
import { workspaceFolderPaths, type Services } from '../services';

// A decision from the palette, with no row of the Proposals view to act on: a quick pick of what waits.

/** The quick pick on screen, if any: its items' labels (the extension's test API reads them). */
let shown: vscode.QuickPick<vscode.QuickPickItem> | undefined;
export const shownPickLabels = (): string[] | undefined => shown?.items.map((i) => i.label);

async function openProposals(services: Services) {
  return (await Promise.all(workspaceFolderPaths().map((ws) => services.proposals.list(ws)))).flat();
}

/** One item chosen, or undefined when dismissed. Items carry the plain data they were made from. */
function pickOne<T>(
  items: Array<vscode.QuickPickItem & { data: T }>,
  title: string,
  placeholder: string,
): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { data: T }>();
  pick.title = title;
  pick.placeholder = placeholder;
  pick.items = items;
  pick.matchOnDescription = true;
  return new Promise((resolve) => {
    let chosen: T | undefined;
    pick.onDidAccept(() => {
      chosen = pick.activeItems[0]?.data;
      pick.hide();
    });
    pick.onDidHide(() => {
      if (shown === pick) shown = undefined;
      pick.dispose();
      resolve(chosen);
    });
    shown = pick as unknown as vscode.QuickPick<vscode.QuickPickItem>;
    pick.show();
  });
}

/** A pending rule of the open proposals, picked by keyboard (held rules included). */
export async function pickPendingRule(
  services: Services,
  verb: 'Accept' | 'Reject',
): Promise<PendingRuleItem | undefined> {
  const items = pendingRuleItems(await openProposals(services));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Combee has no rule waiting for a decision.');
    return undefined;
  }
  return pickOne(
    items.map((item) => ({
      label: item.label,
      description: item.description,
      iconPath: new vscode.ThemeIcon(item.flagged ? 'warning' : 'symbol-rule'),
      data: item,
    })),
    `Combee: ${verb} Rule`,
    `The rule to ${verb.toLowerCase()} (type to filter by id or text)`,
  );
}

/** A pending file of the open proposals, picked by keyboard. */
export async function pickPendingFile(
  services: Services,
  verb: 'Accept' | 'Reject',
): Promise<PendingFileItem | undefined> {
  const items = pendingFileItems(await openProposals(services));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('Combee has no file waiting for a decision.');
    return undefined;
  }
  return pickOne(
    items.map((item) => ({ label: item.label, description: item.description, data: item })),
    `Combee: ${verb} File`,
    `The file to ${verb.toLowerCase()}, with the rules it holds`,
  );
}
