import * as vscode from 'vscode';
import type { Services } from '../services';
import { importTeamBundlesOf, type TeamImportSummary } from '../teamBundles';
import { allowedInThisWorkspace } from '../trust';

/**
 * Combee: Import Team Bundles — the bundles `combee.team.bundles` names (`.combee/team` by default, or a branch), with
 * progress; a refused bundle is a warning naming it and why, the others are still imported.
 */
export async function importTeamBundlesCommand(services: Services): Promise<TeamImportSummary> {
  // Restricted Mode: said here, and the import (the one every capture runs too) refuses and logs it
  if (!allowedInThisWorkspace('import team bundles')) return importTeamBundlesOf(services, { verbose: true });
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Combee: importing team bundles', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        return await importTeamBundlesOf(services, {
          signal: controller.signal,
          report: (message) => progress.report({ message }),
          verbose: true,
        });
      } finally {
        subscription.dispose();
      }
    },
  );
  say(summary);
  return summary;
}

function say(summary: TeamImportSummary): void {
  const showLog = (choice: string | undefined) => {
    if (choice) void vscode.commands.executeCommand('combee.showLog');
  };
  for (const refused of summary.bundles.filter((b) => b.status === 'refused' || b.status === 'failed'))
    void vscode.window
      .showWarningMessage(
        refused.remembered
          ? `Combee: team bundle ${refused.bundle} ${refused.note}`
          : `Combee: team bundle ${refused.bundle} ${refused.status === 'refused' ? 'is refused' : 'could not be read'}: ${refused.why}. Nothing of it was imported; the other bundles were.`,
        'Show Log',
      )
      .then(showLog);
  if (summary.problems.length > 0)
    void vscode.window
      .showWarningMessage(
        `Combee: ${summary.problems[0]}${summary.problems.length > 1 ? ` (and ${summary.problems.length - 1} more)` : ''}`,
        'Show Log',
      )
      .then(showLog);
  const read = summary.bundles.filter((b) => b.status === 'imported');
  const unchanged = summary.bundles.filter((b) => b.status === 'unchanged').length;
  const duplicates = read.reduce((n, b) => n + (b.result?.duplicates ?? 0), 0);
  const message =
    summary.bundles.length === 0
      ? 'Combee found no team bundles (*.combee-bundle) where combee.team.bundles points.'
      : `Combee imported ${summary.imported} session(s) from ${read.length} team bundle(s)${duplicates > 0 ? ` (${duplicates} already here)` : ''}${unchanged > 0 ? `; ${unchanged} unchanged since the last import` : ''}.`;
  void vscode.window.showInformationMessage(message);
}
