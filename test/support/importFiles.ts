import type { RedactionOptions } from '../../src/core/trace/redact';
import { runImportTask } from '../../src/core/import/fileTask';
import { type ReadLimits } from '../../src/core/import/limits';
import type { AgentId, Trace } from '../../src/core/trace/model';
import { classifyFile, walkCandidates } from '../../src/core/trace/scan';
import type { SessionFile } from '../../src/core/trace/sources/types';
import { TraceStore } from '../../src/core/store/traceStore';
import { tempDir } from '../../testing/tmp';

// What the reader tests use to read a file as the importer does: the importer's own walk and sniff, and its worker-side
// task (read, redact, validate, store) into a store of its own, read back.

/** Session files under a folder (an agent's home, one of its sub-folders, a loose folder), each with its agent. */
export async function discoverSessions(
  root: string,
  options: { agent?: AgentId | 'auto'; warn?: (message: string) => void } = {},
): Promise<SessionFile[]> {
  const found: SessionFile[] = [];
  for (const file of await walkCandidates(root, options)) {
    const agent = await classifyFile(file.path, options.agent);
    if (agent) found.push({ ...file, agent });
  }
  return found;
}

/** The importer's own line for a file that gave no session, on top of what the reader said. */
const NO_SESSION =
  /: read as [\w-]+ \(by its first lines or its name and place\), but no session could be read from it; skipped$/;

/**
 * One file imported in full into a fresh store: its traces in the order the reader gave them, the reader's warnings,
 * and whether the importer added its own "no session could be read" (kept apart: the reader tests count their own).
 */
export async function importFile(
  file: SessionFile,
  limits: ReadLimits,
  redaction: RedactionOptions,
): Promise<{ traces: Trace[]; warnings: string[]; tooLarge: string[]; noSession: boolean }> {
  const store = new TraceStore(tempDir('combee-import-file-'));
  const result = await runImportTask({
    path: file.path,
    bytes: file.bytes,
    mtimeMs: file.mtimeMs,
    agent: file.agent,
    limits,
    redaction,
    storeDir: store.dir,
  });
  const traces: Trace[] = [];
  for (const { id } of result.traces) {
    const trace = await store.loadTrace(id);
    if (trace) traces.push(trace);
  }
  const warnings = result.warnings.filter((w) => !NO_SESSION.test(w));
  return {
    traces,
    warnings,
    tooLarge: result.tooLarge ?? [],
    noSession: warnings.length < result.warnings.length,
  };
}
