import { existsSync } from 'node:fs';
import { describeSkipped, mergeSkipped } from '../core/trace/skipped';
import { DEFAULT_READ_LIMITS } from '../core/import/limits';
import { importSessions, type ImportSummary } from '../core/import/importer';
import { defaultSourceFolders, specStoryFolders } from '../core/trace/locations';
import type { AgentId } from '../core/trace/model';
import { workspaceFolderPaths, type Services } from './services';
import { readSettings } from './settings';
import { importTeamBundlesOf, type TeamImportSummary } from './teamBundles';
import { saveRedactionPatterns } from '../core/store/redactionPatterns';

export interface CaptureResult {
  summaries: ImportSummary[];
  /** New sessions, the team bundles' included. */
  sessions: number;
  warnings: number;
  /** The team bundles (`combee.team.bundles`), when the capture was of the default folders. */
  team?: TeamImportSummary;
}

/** A folder sessions are looked for in; `specStory`: a workspace's SpecStory histories (agent `auto`). */
export interface CaptureFolder {
  path: string;
  agent: AgentId | 'auto';
  specStory?: boolean;
}

/**
 * The folders sessions are looked for in, whether they exist or not: the agents' default locations and the workspace
 * folders' SpecStory histories (a setting), plus user-configured extra folders (agent `auto`).
 */
export function configuredFolders(): CaptureFolder[] {
  const settings = readSettings();
  const folders: CaptureFolder[] = settings.defaultLocations
    ? [
        ...defaultSourceFolders().map((f) => ({ path: f.path, agent: f.agent })),
        ...specStoryFolders(workspaceFolderPaths()).map((path) => ({ path, agent: 'auto' as const, specStory: true })),
      ]
    : [];
  for (const extra of settings.extraFolders) folders.push({ path: extra, agent: 'auto' });
  return folders;
}

/** The folders to import from: the configured ones that exist. */
export function captureFolders(): CaptureFolder[] {
  return configuredFolders().filter((f) => existsSync(f.path));
}

/**
 * Imports new and changed sessions from every capture folder through the worker pool, then the team bundles; given
 * `chosen` folders (Import Sessions…), only those.
 */
export async function captureSessions(
  services: Services,
  chosen?: Array<{ path: string; agent: AgentId | 'auto' }>,
  signal?: AbortSignal,
  report?: (message: string) => void,
): Promise<CaptureResult> {
  const settings = readSettings();
  // the CLI reads the user's patterns from the store they share, so `combee import` removes what this import does
  await saveRedactionPatterns(services.store.dir, settings.extraRedactionPatterns).catch((error: Error) =>
    services.log.warn(`could not record the redaction patterns for the CLI: ${error.message}`),
  );
  const folders = chosen ?? captureFolders();
  const pool = services.workerPool();
  const summaries: ImportSummary[] = [];
  for (const folder of folders) {
    report?.(`importing ${folder.path}`);
    const summary = await importSessions({
      from: folder.path,
      agent: folder.agent,
      store: services.store,
      redaction: { extraPatterns: settings.extraRedactionPatterns },
      limits: { ...DEFAULT_READ_LIMITS, maxOutputChars: settings.maxToolOutputChars },
      signal,
      concurrency: pool.size * 2,
      // the worker reads, resumes and stores each file itself: only counts cross threads
      runTask: (task) => pool.runImport(task, signal),
      runBatch: (tasks) => pool.runImportBatch(tasks, signal),
    });
    for (const message of summary.warningMessages) services.log.warn(message);
    const skipped = describeSkipped(summary);
    if (skipped) services.log.info(`${folder.path}: ${skipped}`);
    services.log.info(
      `imported ${summary.sessions} session(s) from ${folder.path} (${summary.unchangedFiles} unchanged file(s), ${summary.redactions} redaction(s), ${summary.warnings} warning(s))`,
    );
    summaries.push(summary);
  }
  const team = chosen ? undefined : await teamBundles(services, signal, report);
  const leftOut = mergeSkipped(summaries);
  // the views refresh for new sessions, or for a change in what was left out (each import counts it again)
  const skipsChanged =
    JSON.stringify(leftOut) !== JSON.stringify(services.lastImportSkipped ?? { skipped: {}, skippedSamples: {} });
  services.lastImportSkipped = leftOut;
  if (skipsChanged || summaries.some((s) => s.sessions > 0)) services.notifyChanged();
  return {
    summaries,
    sessions: summaries.reduce((n, s) => n + s.sessions, 0) + (team?.imported ?? 0),
    warnings: summaries.reduce((n, s) => n + s.warnings, 0),
    team,
  };
}

/** The team bundles after the agents' folders; a failure is logged and leaves the capture as it was. */
async function teamBundles(
  services: Services,
  signal?: AbortSignal,
  report?: (message: string) => void,
): Promise<TeamImportSummary | undefined> {
  try {
    return await importTeamBundlesOf(services, { signal, report });
  } catch (error) {
    services.log.warn(`could not import the team bundles: ${(error as Error).message}`);
    return undefined;
  }
}
