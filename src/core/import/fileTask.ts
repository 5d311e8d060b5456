// The worker side of an import: one file (or a batch of small ones) read, redacted, validated and stored; only
// counts go back to the host.
import { TraceStore, type ImportedFile, type TraceWriter } from '../store/traceStore';
import { decideResume, normalizeResumed, type IncrementalContext, type ResumeInput } from '../trace/incremental';
import type { AgentId, Trace, TraceDraft } from '../trace/model';
import { normalizeTrace } from '../trace/normalize';
import { createRedactor, type RedactionOptions } from '../trace/redact';
import { classifyFile } from '../trace/scan';
import { readByCurrentReader, readerFor, readerVersion } from '../trace/sources';
import { MAX_JSON_DOCUMENT_BYTES } from '../trace/sources/jsonDocument';
import { MAX_SQLITE_BYTES } from '../trace/sources/sqlite';
import type { ReadContext, SessionFile, SourceReader } from '../trace/sources/types';

import { limitsFor, type ReadLimits } from './limits';
import { resumeInput, resumePoint, type Checkpoint } from './resume';

interface DraftsRead {
  drafts: TraceDraft[];
  warnings: string[];
  tooLarge: string[];
  /** The reader found a session with nothing in it yet. */
  empty?: boolean;
  checkpoint?: Checkpoint;
  failed?: boolean;
  /** The reader reads this file's sessions from another file. */
  elsewhere?: string;
}

async function readDrafts(
  reader: SourceReader,
  file: SessionFile,
  limits: ReadLimits,
  resume?: ResumeInput,
  recurringOpenings?: string[],
): Promise<DraftsRead> {
  const warnings: string[] = [];
  const tooLarge: string[] = [];
  let checkpoint: Checkpoint | undefined;
  let elsewhere: string | undefined;
  let empty = false;
  const ctx: ReadContext & IncrementalContext = {
    warn: (m) => warnings.push(m),
    readElsewhere: (path) => {
      elsewhere = path;
    },
    tooLarge: (path) => {
      if (!tooLarge.includes(path)) tooLarge.push(path);
    },
    empty: () => {
      empty = true;
    },
    ...limits,
    maxDocumentBytes: limits.maxDocumentBytes ?? MAX_JSON_DOCUMENT_BYTES,
    maxSqliteBytes: limits.maxSqliteBytes ?? MAX_SQLITE_BYTES,
    resume,
    recurringOpenings: recurringOpenings && new Set(recurringOpenings),
    checkpoint: (read, state) => {
      checkpoint = {
        read: {
          endOffset: read.endOffset,
          trailingBytes: read.trailingBytes,
          bytesRead: read.bytesRead,
          edges: read.edges,
        },
        state,
      };
    },
  };
  try {
    const drafts = await reader.read(file, ctx);
    return { drafts, warnings, tooLarge, empty, checkpoint, elsewhere };
  } catch (error) {
    warnings.push(`${file.path}: could not be read (${(error as Error).message})`);
    return { drafts: [], warnings, tooLarge, failed: true };
  }
}

/**
 * Normalizes the drafts one at a time; each draft is let go once normalized (`drafts[i]` is cleared), so a caller
 * that stores each trace before asking for the next holds one session's text at a time.
 */
function* normalizeEach(
  file: SessionFile,
  drafts: Array<TraceDraft | undefined>,
  warnings: string[],
  redaction: RedactionOptions,
  stored?: Map<string, Trace>,
): Generator<Trace> {
  let reported = false;
  const makeRedactor = () =>
    createRedactor(redaction, (source, error) => {
      if (!reported) warnings.push(`invalid redaction pattern ${JSON.stringify(source)}: ${error}`);
    });
  const redactor = makeRedactor();
  reported = true;
  const fileWarnings = [...warnings];
  for (let i = 0; i < drafts.length; i++) {
    const draft = drafts[i];
    if (!draft) continue;
    drafts[i] = undefined;
    let trace: Trace;
    try {
      const old = stored?.get(draft.id);
      trace = old
        ? normalizeResumed(draft, old, makeRedactor, fileWarnings)
        : normalizeTrace({ ...draft, warnings: [...draft.warnings, ...fileWarnings] }, redactor);
    } catch (error) {
      warnings.push(
        `${file.path}: session ${draft.id} failed validation and was skipped (${(error as Error).message.slice(0, 200)})`,
      );
      continue;
    }
    yield trace;
  }
}

function noSessionWarning(file: SessionFile): string {
  return `${file.path}: read as ${file.agent} (by its first lines or its name and place), but no session could be read from it; skipped`;
}

/** One file's import, the unit of work of the worker pool: everything from sniffing to the stored traces. */
export interface ImportTask {
  path: string;
  bytes: number;
  mtimeMs: number;
  /** The agent when known from the index; otherwise the file is sniffed (limited to `sniffAgent` when given). */
  agent?: AgentId;
  sniffAgent?: AgentId | 'auto';
  /** Its index entry from the last import, to resume from. */
  previous?: ImportedFile;
  limits: ReadLimits;
  redaction: RedactionOptions;
  storeDir: string;
  /** Opening keys that start many sessions of this import (see import/openings.ts). */
  recurringOpenings?: string[];
}

export interface TraceCounts {
  id: string;
  agent: string;
  steps: number;
  toolCalls: number;
  toolErrors: number;
  redactions: number;
}

export interface ImportTaskResult {
  /** The new index entry; absent when the file is no session of any agent. */
  entry?: ImportedFile;
  traces: TraceCounts[];
  warnings: string[];
  /** Files refused for their size: this one (`mode` 'too-large' when it gave nothing), or siblings it reads. */
  tooLarge?: string[];
  bytesRead: number;
  mode: 'full' | 'resumed' | 'same' | 'not-a-session' | 'unreadable' | 'too-large' | 'empty';
  /** Why a file imported before was read again from its start. */
  restart?: 'truncated' | 'rotated';
}

/**
 * Reads a file (only its new lines when the reader can resume), stores its traces and returns counts only. With
 * `writer` the traces go into that (shared) pack and are visible once the caller closes it; else into their own.
 */
export async function runImportTask(task: ImportTask, writer?: TraceWriter): Promise<ImportTaskResult> {
  const store = new TraceStore(task.storeDir);
  if (!writer) {
    const own = store.openPack();
    try {
      return await runImportTask(task, own);
    } finally {
      await own.close();
    }
  }
  let agent: AgentId | undefined;
  try {
    agent = task.agent ?? (await classifyFile(task.path, task.sniffAgent));
  } catch (error) {
    return {
      traces: [],
      warnings: [`${task.path}: could not be read (${(error as Error).message})`],
      bytesRead: 0,
      mode: 'unreadable',
    };
  }
  // `--agent X` is the user's word: a file of X's name that X's sniffer does not recognize is read as X all the same.
  if (!agent && task.sniffAgent && task.sniffAgent !== 'auto') agent = task.sniffAgent;
  if (!agent) return { traces: [], warnings: [], bytesRead: 0, mode: 'not-a-session' };
  const file: SessionFile = { path: task.path, agent, bytes: task.bytes, mtimeMs: task.mtimeMs };
  const reader = readerFor(agent);
  if (!reader)
    return {
      traces: [],
      warnings: [`${file.path}: no reader for agent ${agent}`],
      bytesRead: 0,
      mode: 'not-a-session',
    };
  const warnings: string[] = [];
  // what an older version of the reader read is read again in full, not resumed from
  const previous = task.previous?.agent === agent && readByCurrentReader(task.previous) ? task.previous : undefined;

  const decision = await decideResume(file.path, file.bytes, previous).catch(() => ({
    kind: 'full' as const,
    reason: undefined,
  }));
  if (decision.kind === 'same' && previous) {
    return { entry: { ...previous, mtimeMs: file.mtimeMs }, traces: [], warnings: [], bytesRead: 0, mode: 'same' };
  }
  const restart = decision.kind === 'full' ? decision.reason : undefined;
  if (restart === 'truncated')
    warnings.push(
      `${file.path}: truncated since the last import (now ${file.bytes} bytes, ${previous?.offset ?? previous?.bytes} read before); read again in full`,
    );
  if (restart === 'rotated')
    warnings.push(`${file.path}: replaced since the last import (the bytes read before changed); read again in full`);

  // with a stored trace or the saved state gone there is nothing to resume from: the file is read in full
  const resuming =
    decision.kind === 'resume' && previous ? await resumeInput(store, file.path, previous, decision.start) : undefined;
  const resume = resuming?.resume;
  const stored = resuming?.stored;

  const limits = limitsFor(file.bytes, task.limits);
  const read = await readDrafts(reader, file, limits, resume, task.recurringOpenings);
  // A reader without resume support reads from 0 whatever it was offered: then its drafts are whole traces.
  const resumed =
    resume !== undefined &&
    read.checkpoint !== undefined &&
    read.checkpoint.read.endOffset + read.checkpoint.read.trailingBytes - read.checkpoint.read.bytesRead ===
      resume.start;
  const counts: TraceCounts[] = [];
  for (const trace of normalizeEach(file, read.drafts, read.warnings, task.redaction, resumed ? stored : undefined)) {
    await writer.save(trace);
    counts.push(countTrace(trace));
  }
  warnings.push(...read.warnings);
  // Refused for its size: counted as skipped, and left out of the index so every import counts it while it stays so.
  if (counts.length === 0 && read.tooLarge.includes(file.path))
    return { traces: [], warnings, tooLarge: read.tooLarge, bytesRead: 0, mode: 'too-large' };
  // A session with nothing in it yet is no damage: skipped as empty, and read again once it grows.
  if (counts.length === 0 && read.empty && !resumed) return { traces: [], warnings, bytesRead: 0, mode: 'empty' };
  // A file taken for a session that gives none is never passed over in silence: one line says so, after the reader's why.
  if (counts.length === 0 && !resumed && !read.elsewhere) warnings.push(noSessionWarning(file));

  // A full read that found no session leaves nothing to resume onto (a title read before its session would be lost).
  const point = await resumePoint(
    store,
    file,
    limits,
    previous,
    read.failed ? undefined : read.checkpoint,
    resumed || counts.length > 0,
  );
  const ids = counts.map((t) => t.id);
  const traceIds = resumed && previous ? [...new Set([...previous.traceIds, ...ids])] : ids;
  return {
    entry: { agent, bytes: file.bytes, mtimeMs: file.mtimeMs, traceIds, ...point, ...versionOf(agent) },
    traces: counts,
    warnings,
    tooLarge: read.tooLarge,
    bytesRead: read.checkpoint?.read.bytesRead ?? file.bytes,
    mode: resumed ? 'resumed' : 'full',
    restart,
  };
}

function countTrace(trace: Trace): TraceCounts {
  let toolCalls = 0;
  for (const step of trace.steps) if (step.kind === 'tool_call') toolCalls++;
  return {
    id: trace.id,
    agent: trace.agent,
    steps: trace.steps.length,
    toolCalls,
    toolErrors: trace.outcome.toolErrors,
    redactions: trace.redactions,
  };
}

/** A file of a batch whose import threw (in the worker or on the way). */
export interface BatchFailure {
  error: string;
}

/**
 * Runs a batch of tasks one after the other in this thread, storing all their traces in one pack, published before
 * the results go back (the caller then indexes them); a task that throws fails alone.
 */
export async function runImportBatch(tasks: ImportTask[]): Promise<Array<ImportTaskResult | BatchFailure>> {
  const results: Array<ImportTaskResult | BatchFailure> = [];
  if (tasks.length === 0) return results;
  const writer = new TraceStore(tasks[0].storeDir).openPack();
  try {
    for (const task of tasks) {
      try {
        results.push(await runImportTask(task, writer));
      } catch (error) {
        results.push({ error: (error as Error).message });
      }
    }
  } finally {
    await writer.close();
  }
  return results;
}

/** Imports every session file under `from` into the store: unchanged files are skipped, grown logs resumed. */

/** The reader version an index entry records: none for version 1, so older indexes and entries stay as they were. */
function versionOf(agent: AgentId): { readerVersion?: number } {
  const version = readerVersion(agent);
  return version > 1 ? { readerVersion: version } : {};
}
