import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AllowedSigners } from '../core/team/allowedSigners';
import { chooseAllowedSigners, loadAllowedSigners } from '../core/team/allowedSignersSource';
import { BundleError } from '../core/team/bundle';
import { describeSigner } from '../core/team/bundleSignature';
import { importTeamBundles, type TeamBundleOutcome } from '../core/team/teamImport';
import type { Services } from './services';
import { readSettings } from './settings';
import { noticeIgnoredSettings } from './ignoredSettings';
import { plural } from '../core/util/text';

/** What one import of the team bundles did, over every workspace folder. */
export interface TeamImportSummary {
  /** Every bundle looked at, its folder with it. */
  bundles: Array<TeamBundleOutcome & { workspace: string }>;
  /** Entries and bundles not read, each naming it and why. */
  problems: string[];
  /** Sessions new to the store. */
  imported: number;
  /** Restricted Mode: nothing was looked at. */
  restricted: boolean;
}

export interface TeamImportRun {
  signal?: AbortSignal;
  report?: (message: string) => void;
  /** Run by the user: refusals remembered from an earlier read and unchanged problems are logged again. */
  verbose?: boolean;
}

/** Most warnings of one bundle (invalid lines, folders set to the root) written to the log. */
const MAX_LOGGED_WARNINGS = 20;

let restrictedNoted = false;
/** Remembered refusals and failures already logged as skipped: a capture every few minutes does not repeat them. */
const notedSkips = new Set<string>();
/** Problems already logged, per folder: a capture every few minutes does not repeat them. */
const loggedProblems = new Map<string, string>();
/** One import at a time: the capture and the command may overlap, and each dedupes against the store as it starts. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Imports the team bundles `combee.team.bundles` names, in every workspace folder, into the store: each bundle's
 * result logged, a refused one as a warning naming it and why. Not in Restricted Mode: the repository's bundles and
 * settings are untrusted there.
 */
export function importTeamBundlesOf(services: Services, run: TeamImportRun = {}): Promise<TeamImportSummary> {
  const next = queue.then(
    () => importAll(services, run),
    () => importAll(services, run),
  );
  queue = next.catch(() => undefined);
  return next;
}

async function importAll(services: Services, run: TeamImportRun): Promise<TeamImportSummary> {
  const summary: TeamImportSummary = { bundles: [], problems: [], imported: 0, restricted: false };
  if (!vscode.workspace.isTrusted) {
    if (!restrictedNoted || run.verbose)
      services.log.info(
        'Restricted Mode: team bundles (combee.team.bundles) are not imported until the folder is trusted',
      );
    restrictedNoted = true;
    return { ...summary, restricted: true };
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  for (const folder of folders) {
    const workspace = folder.uri.fsPath;
    const where = folders.length > 1 ? `${basename(workspace)}: ` : '';
    run.report?.(`team bundles of ${basename(workspace)}`);
    const settings = readSettings(folder.uri);
    const allowedSigners = await allowedSignersOf(services.log, workspace, settings.teamAllowedSigners, run.verbose);
    const result = await importTeamBundles({
      store: services.store,
      workspace,
      entries: settings.teamBundles,
      signal: run.signal,
      // run by the user: a bundle whose import failed is tried again (a refused one waits until it changes)
      retryFailed: run.verbose,
      // decompressing, checking and redacting a bundle is CPU work: a worker thread does it
      importOne: async (path) => {
        const done = await services
          .workerPool()
          .runBundleImport({ storeDir: services.store.dir, path, workspace, allowedSigners }, run.signal);
        if ('refused' in done) throw new BundleError(path, done.refused.replace(`bundle ${path} is refused: `, ''));
        return done.result;
      },
      onBundle: (outcome) => {
        logOutcome(services.log, `${where}${outcome.bundle}`, outcome, run.verbose);
        if (outcome.status === 'imported') run.report?.(`imported ${outcome.bundle}`);
      },
    });
    const problems = result.problems.map((p) => `${where}${p}`);
    const said = problems.join('\n');
    if (run.verbose || loggedProblems.get(workspace) !== said) for (const p of problems) services.log.warn(p);
    loggedProblems.set(workspace, said);
    // said once per workspace in a notification too: the log alone goes unseen
    if (problems.length > 0)
      await noticeIgnoredSettings(services, [
        {
          setting: 'combee.team.bundles',
          why: `${plural(problems.length, 'entry or bundle', 'entries or bundles')} not read (first: ${problems[0]})`,
        },
      ]);
    summary.bundles.push(...result.bundles.map((b) => ({ ...b, workspace })));
    summary.problems.push(...problems);
    summary.imported += result.imported;
  }
  // the Sessions view and the status bar show the new sessions
  if (summary.imported > 0) services.notifyChanged();
  return summary;
}

/** Problems with the allowed-signers file already logged, per folder (a capture runs every few minutes). */
const loggedSigners = new Map<string, string>();

/** The user's allowed signers for a folder (combee.team.allowedSigners, else their global git config); none: undefined. */
async function allowedSignersOf(
  log: vscode.LogOutputChannel,
  workspace: string,
  setting: string,
  verbose?: boolean,
): Promise<AllowedSigners | undefined> {
  const choice = await chooseAllowedSigners(workspace, { value: setting, from: 'combee.team.allowedSigners' });
  const loaded = choice === undefined || typeof choice === 'string' ? choice : await loadAllowedSigners(choice);
  const problems = typeof loaded === 'string' ? [`${loaded}: no bundle signer is verified`] : (loaded?.warnings ?? []);
  const said = problems.join('\n');
  if (verbose || loggedSigners.get(workspace) !== said) for (const p of problems) log.warn(p);
  loggedSigners.set(workspace, said);
  return typeof loaded === 'string' ? undefined : loaded;
}

function logOutcome(log: vscode.LogOutputChannel, name: string, outcome: TeamBundleOutcome, verbose?: boolean): void {
  const { result } = outcome;
  switch (outcome.status) {
    case 'imported': {
      if (!result) return;
      log.info(
        `team bundle ${name} (${describeSigner(result.signature, result.bundle.exportedBy)}, ${result.bundle.traces} session(s)): ${result.imported} imported, ${result.duplicates} duplicate(s), ${result.invalid} invalid, ${result.redactions} redaction(s)`,
      );
      for (const warning of result.warnings.slice(0, MAX_LOGGED_WARNINGS)) log.warn(`team bundle ${name}: ${warning}`);
      if (result.warnings.length > MAX_LOGGED_WARNINGS)
        log.warn(`team bundle ${name}: ${result.warnings.length - MAX_LOGGED_WARNINGS} more warning(s)`);
      return;
    }
    case 'refused':
    case 'failed': {
      if (outcome.remembered) {
        const key = `${name}\n${outcome.note}`;
        if (verbose || !notedSkips.has(key)) log.warn(`team bundle ${name}: ${outcome.note}`);
        else log.debug(`team bundle ${name}: still skipped, unchanged`);
        notedSkips.add(key);
      } else if (outcome.status === 'refused')
        log.warn(`team bundle ${name} is refused: ${outcome.why}; nothing of it is imported, the other bundles are`);
      else log.warn(`team bundle ${name} could not be read: ${outcome.why}; nothing of it is imported`);
      return;
    }
    case 'unchanged':
      log.debug(`team bundle ${name}: unchanged since it was imported`);
  }
}
