import { existsSync } from 'node:fs';
import { describeSkipped, mergeSkipped } from '../core/trace/skipped';
import { DEFAULT_READ_LIMITS } from '../core/import/limits';
import { importSessions, type ImportSummary } from '../core/import/importer';
import { defaultSourceFolders } from '../core/trace/locations';
import type { AgentId } from '../core/trace/model';
import type { Services } from './services';
import { readSettings } from './settings';

export interface CaptureResult {
  summaries: ImportSummary[];
  sessions: number;
  warnings: number;
}

/** The folders to import from: the agents' default locations (a setting) plus user-configured extra folders. */
export function captureFolders(): Array<{ path: string; agent: AgentId | 'auto' }> {
  const settings = readSettings();
  const folders: Array<{ path: string; agent: AgentId | 'auto' }> = settings.defaultLocations
    ? defaultSourceFolders().map((f) => ({ path: f.path, agent: f.agent }))
    : [];
  for (const extra of settings.extraFolders) folders.push({ path: extra, agent: 'auto' });
  return folders.filter((f) => existsSync(f.path));
}

/** Imports new and changed sessions from every capture folder through the worker pool. */
export async function captureSessions(
  services: Services,
  folders = captureFolders(),
  signal?: AbortSignal,
  report?: (message: string) => void,
): Promise<CaptureResult> {
  const settings = readSettings();
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
  const leftOut = mergeSkipped(summaries);
  // the views refresh for new sessions, or for a change in what was left out (each import counts it again)
  const skipsChanged =
    JSON.stringify(leftOut) !== JSON.stringify(services.lastImportSkipped ?? { skipped: {}, skippedSamples: {} });
  services.lastImportSkipped = leftOut;
  if (skipsChanged || summaries.some((s) => s.sessions > 0)) services.notifyChanged();
  return {
    summaries,
    sessions: summaries.reduce((n, s) => n + s.sessions, 0),
    warnings: summaries.reduce((n, s) => n + s.warnings, 0),
  };
}
