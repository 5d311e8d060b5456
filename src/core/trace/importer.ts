import { resolve, sep } from 'node:path';
import {
  copyForReader,
  decideResume,
  FINGERPRINT_BYTES,
  fingerprint,
  fingerprintFromEdges,
  normalizeResumed,
  resumableCheckpoint,
  type IncrementalContext,
  type ResumeInput,
  type ResumePoint,
} from './incremental';
import { clipLimitsFor } from './jsonClip';
import { DEFAULT_MAX_LINE_BYTES, type LineReadResult } from './lines';
import type { AgentId, Trace, TraceDraft } from './model';
import { normalizeTrace } from './normalize';
import { createRedactor, type RedactionOptions } from './redact';
import { classifyFile, walkCandidates } from './scan';
import { skipCounter, type Skipped } from './skipped';
import { readerFor } from './sources';
import { MAX_JSON_DOCUMENT_BYTES } from './sources/jsonDocument';
import { MAX_SQLITE_BYTES } from './sources/sqlite';
import type { ReadContext, SessionFile, SourceReader } from './sources/types';
import { TraceStore, type ImportedFile, type TraceWriter } from './store';

export interface ReadLimits {
  maxLineBytes: number;
  maxOutputChars: number;
  /** Size caps of files read whole (see ReadContext); the readers' defaults when absent. */
  maxDocumentBytes?: number;
  maxSqliteBytes?: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxOutputChars: 8_000 };

/** Sessions bigger than this get proportionally shorter tool outputs (down to 2,000 characters), so one trace stays small in memory. */
const LARGE_FILE_BYTES = 32 * 1024 * 1024;
const MIN_OUTPUT_CHARS = 2_000;
/** Resume states up to this size (JSON characters) are kept in the import index itself. */
const INLINE_STATE_CHARS = 16 * 1024;

export function limitsFor(bytes: number, limits: ReadLimits): ReadLimits {
  if (bytes <= LARGE_FILE_BYTES) return limits;
  const scaled = Math.floor((limits.maxOutputChars * LARGE_FILE_BYTES) / bytes);
  return { ...limits, maxOutputChars: Math.max(Math.min(MIN_OUTPUT_CHARS, limits.maxOutputChars), scaled) };
}

type Checkpoint = { read: Pick<LineReadResult, 'endOffset' | 'trailingBytes' | 'bytesRead' | 'edges'>; state: unknown };

interface DraftsRead {
  drafts: TraceDraft[];
  warnings: string[];
  tooLarge: string[];
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
): Promise<DraftsRead> {
  const warnings: string[] = [];
  const tooLarge: string[] = [];
  let checkpoint: Checkpoint | undefined;
  let elsewhere: string | undefined;
  const ctx: ReadContext & IncrementalContext = {
    warn: (m) => warnings.push(m),
    readElsewhere: (path) => {
      elsewhere = path;
    },
    tooLarge: (path) => {
      if (!tooLarge.includes(path)) tooLarge.push(path);
    },
    ...limits,
    maxDocumentBytes: limits.maxDocumentBytes ?? MAX_JSON_DOCUMENT_BYTES,
    maxSqliteBytes: limits.maxSqliteBytes ?? MAX_SQLITE_BYTES,
    resume,
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
    return { drafts, warnings, tooLarge, checkpoint, elsewhere };
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
  mode: 'full' | 'resumed' | 'same' | 'not-a-session' | 'unreadable' | 'too-large';
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
  const previous = task.previous?.agent === agent ? task.previous : undefined;

  let decision = await decideResume(file.path, file.bytes, previous).catch(() => ({
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

  let resume: ResumeInput | undefined;
  let stored: Map<string, Trace> | undefined;
  if (decision.kind === 'resume' && previous) {
    const traces = await Promise.all(previous.traceIds.map((id) => store.loadTrace(id)));
    const saved = previous.stateFile ? await store.loadResumeState(file.path) : parseState(previous.state);
    if (saved && traces.every((t): t is Trace => t !== undefined)) {
      stored = new Map(traces.map((t) => [t.id, t]));
      resume = { start: decision.start, traces: copyForReader(traces), state: saved.state };
    } else {
      decision = { kind: 'full', reason: undefined };
    }
  }

  const limits = limitsFor(file.bytes, task.limits);
  const read = await readDrafts(reader, file, limits, resume);
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
  // A file taken for a session that gives none is never passed over in silence: one line says so, after the reader's why.
  if (counts.length === 0 && !resumed && !read.elsewhere) warnings.push(noSessionWarning(file));

  let point: ResumePoint & Pick<ImportedFile, 'state' | 'stateFile'>;
  // A full read that found no session leaves nothing to resume onto (a title read before its session would be lost).
  if (
    read.checkpoint &&
    !read.failed &&
    (resumed || counts.length > 0) &&
    (await resumableCheckpoint(
      file.path,
      read.checkpoint.read,
      limits.maxLineBytes,
      clipLimitsFor(limits.maxOutputChars),
    ))
  ) {
    const { endOffset, edges } = read.checkpoint.read;
    point = fingerprintFromEdges(edges, endOffset) ?? (await fingerprint(file.path, endOffset));
    // Small states live in the index (one file fewer to create per session), big ones beside it.
    const state = read.checkpoint.state ?? null;
    const json = JSON.stringify(state);
    if (json.length <= INLINE_STATE_CHARS) {
      // kept as text: one flat string per file in the main thread's index, parsed only to resume
      point.state = json;
      if (previous?.stateFile) await store.saveResumeState(file.path, undefined);
    } else {
      await store.saveResumeState(file.path, state);
      point.stateFile = true;
    }
  } else {
    // no resume point, but a head fingerprint still tells a replaced file from a changed one next time
    const { head, headBytes } = await fingerprint(file.path, Math.min(file.bytes, FINGERPRINT_BYTES));
    point = { head, headBytes };
    if (previous?.stateFile) await store.saveResumeState(file.path, undefined);
  }
  const ids = counts.map((t) => t.id);
  const traceIds = resumed && previous ? [...new Set([...previous.traceIds, ...ids])] : ids;
  return {
    entry: { agent, bytes: file.bytes, mtimeMs: file.mtimeMs, traceIds, ...point },
    traces: counts,
    warnings,
    tooLarge: read.tooLarge,
    bytesRead: read.checkpoint?.read.bytesRead ?? file.bytes,
    mode: resumed ? 'resumed' : 'full',
    restart,
  };
}

function parseState(json: string | undefined): { state: unknown } | undefined {
  if (json === undefined) return undefined;
  try {
    return { state: JSON.parse(json) as unknown };
  } catch {
    return undefined;
  }
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

export interface AgentCounts {
  sessions: number;
  steps: number;
  toolCalls: number;
}

/** `skipped` (Skipped) counts unchanged non-session files too: every file seen and not imported. */
export interface ImportSummary extends AgentCounts, Skipped {
  files: number;
  unchangedFiles: number;
  /** Files read from where the last import stopped. */
  resumedFiles: number;
  /** Files imported before that were truncated or replaced, so read again in full. */
  restartedFiles: number;
  /** Size of the files imported in this run. */
  bytes: number;
  /** Bytes actually read: only the new ones of resumed files. */
  bytesRead: number;
  toolErrors: number;
  warnings: number;
  warningMessages: string[];
  redactions: number;
  byAgent: Record<string, AgentCounts>;
  traceIds: string[];
}

export interface ImportOptions {
  from: string;
  store: TraceStore;
  agent?: AgentId | 'auto';
  limits?: ReadLimits;
  redaction?: RedactionOptions;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, path: string) => void;
  /** Runs `runImportTask` elsewhere (the worker pool, which then writes the traces itself); defaults to in-process. */
  runTask?: (task: ImportTask) => Promise<ImportTaskResult>;
  /**
   * Runs several small files' tasks in one go (`runImportBatch` in a worker): one round trip to the worker per batch
   * instead of per file. Files are retried one by one through `runTask` when a whole batch fails.
   */
  runBatch?: (tasks: ImportTask[]) => Promise<Array<ImportTaskResult | BatchFailure>>;
  /** Concurrent files in flight. */
  concurrency?: number;
}

const INDEX_SAVE_INTERVAL_MS = 5_000;
/** Small files go to a worker together: per-file round trips cost more than reading a 20 KB session, and each batch creates a pack and its index. */
const BATCH = { files: 128, bytes: 16 * 1024 * 1024 };

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
export async function importSessions(options: ImportOptions): Promise<ImportSummary> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const redaction = options.redaction ?? {};
  const summary: ImportSummary = {
    sessions: 0,
    steps: 0,
    toolCalls: 0,
    files: 0,
    unchangedFiles: 0,
    resumedFiles: 0,
    restartedFiles: 0,
    bytes: 0,
    bytesRead: 0,
    toolErrors: 0,
    warnings: 0,
    warningMessages: [],
    skipped: {},
    skippedSamples: {},
    redactions: 0,
    byAgent: {},
    traceIds: [],
  };
  const skip = skipCounter(summary);
  const warn = (message: string) => {
    summary.warnings++;
    if (summary.warningMessages.length < 200) summary.warningMessages.push(message);
  };
  const store = options.store;
  await store.ensure();
  const agentFilter = options.agent && options.agent !== 'auto' ? options.agent : undefined;
  const root = resolve(options.from);
  const [found, index] = await Promise.all([
    walkCandidates(root, { agent: options.agent, warn, skip, exclude: [resolve(store.dir)] }),
    store.loadIndex(),
  ]);
  const skipped = (index.skipped ??= {});
  // Non-session files that are gone from the folder walked are forgotten (session files stay: their traces do).
  const seen = new Set(found.map((f) => f.path));
  for (const path of Object.keys(skipped))
    if ((path === root || path.startsWith(root + sep)) && !seen.has(path)) delete skipped[path];
  const todo: ImportTask[] = [];
  for (const file of found) {
    const known = index.files[file.path];
    if (known && agentFilter && known.agent !== agentFilter) continue;
    if (known && known.bytes === file.bytes && known.mtimeMs === file.mtimeMs) {
      summary.unchangedFiles++;
      continue;
    }
    if (file.bytes === 0 && !known) {
      skip('empty', file.path);
      continue;
    }
    const notSession = skipped[file.path];
    if (!agentFilter && notSession && notSession.bytes === file.bytes && notSession.mtimeMs === file.mtimeMs) {
      skip('not a session', file.path);
      continue;
    }
    todo.push({
      ...file,
      agent: known?.agent as AgentId | undefined,
      sniffAgent: options.agent,
      previous: known,
      limits,
      redaction,
      storeDir: store.dir,
    });
  }
  summary.files = summary.unchangedFiles;
  const runTask = options.runTask ?? runImportTask;
  const queue = new TaskQueue(todo);
  const batchLimits = options.runBatch ? BATCH : { files: 1, bytes: 0 };

  /** A batch's results; when the batch as a whole fails, its files are tried one by one so a bad one fails alone. */
  const runBatch = async (tasks: ImportTask[]): Promise<Array<ImportTaskResult | BatchFailure>> => {
    const one = async (task: ImportTask): Promise<ImportTaskResult | BatchFailure> => {
      try {
        return await runTask(task);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return { error: (error as Error).message };
      }
    };
    if (tasks.length === 1 || !options.runBatch) return [await one(tasks[0])];
    try {
      return await options.runBatch(tasks);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const results: Array<ImportTaskResult | BatchFailure> = [];
      for (const task of tasks) results.push(await one(task));
      return results;
    }
  };

  let done = 0;
  let savedAt = Date.now();
  let saving: Promise<void> | undefined;
  const record = (task: ImportTask, result: ImportTaskResult | BatchFailure) => {
    if ('error' in result) {
      // One file must not end the import: a worker that ran out of memory, a file that vanished mid-read…
      warn(`${task.path}: could not be imported (${result.error.slice(0, 300)})`);
      skip('unreadable', task.path);
      options.onProgress?.(++done, todo.length, task.path);
      return;
    }
    for (const message of result.warnings) warn(message);
    for (const path of result.tooLarge ?? []) skip('too large', path);
    if (result.entry) {
      index.files[task.path] = result.entry;
      delete skipped[task.path];
      summary.files++;
      summary.bytes += task.bytes;
      summary.bytesRead += result.bytesRead;
      if (result.mode === 'resumed') summary.resumedFiles++;
      if (result.restart) summary.restartedFiles++;
      for (const trace of result.traces) count(summary, trace);
    } else if (result.mode === 'unreadable') {
      skip('unreadable', task.path);
    } else if (result.mode === 'not-a-session') {
      skip('not a session', task.path);
      if (!agentFilter) skipped[task.path] = { bytes: task.bytes, mtimeMs: task.mtimeMs };
    }
    options.onProgress?.(++done, todo.length, task.path);
  };
  const worker = async () => {
    for (let batch = await queue.nextBatch(batchLimits); batch.length > 0; batch = await queue.nextBatch(batchLimits)) {
      options.signal?.throwIfAborted();
      let results: Array<ImportTaskResult | BatchFailure>;
      try {
        results = await runBatch(batch);
      } finally {
        for (const task of batch) queue.finished(task);
      }
      batch.forEach((task, i) => record(task, results[i] ?? { error: 'no result' }));
      // What was imported stays imported after a crash, without rewriting the index after every file.
      if (!saving && Date.now() - savedAt > INDEX_SAVE_INTERVAL_MS) {
        saving = store.saveIndex(index).finally(() => {
          savedAt = Date.now();
          saving = undefined;
        });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  } finally {
    await saving;
    if (todo.length > 0) await store.saveIndex(index);
  }
  // Superseded copies of grown sessions pile up in packs, and so do the copies an import killed midway left for the
  // next one to write again: rewritten once they are worth it (compaction decides; checking costs the index reads).
  if (summary.sessions > 0)
    await store.compact().catch((error: Error) => warn(`trace packs not compacted: ${error.message}`));
  return summary;
}

/** Files this big hold tens of MB of trace while they are read: one at a time, other workers take smaller ones. */
const LARGE_TASK_BYTES = 64 * 1024 * 1024;

/**
 * Hands out tasks biggest first (a huge session must not start last and leave the other workers idle), but never
 * two huge files at once: peak memory is that of one huge session plus ordinary ones, however many there are.
 */
export class TaskQueue<T extends { bytes: number }> {
  private readonly large: T[];
  private readonly small: T[];
  private largeRunning = 0;
  private waiting: Array<() => void> = [];

  constructor(
    tasks: T[],
    private readonly largeBytes = LARGE_TASK_BYTES,
  ) {
    const sorted = [...tasks].sort((a, b) => b.bytes - a.bytes);
    this.large = sorted.filter((t) => t.bytes >= largeBytes);
    this.small = sorted.filter((t) => t.bytes < largeBytes);
  }

  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.large.length > 0 && this.largeRunning === 0) {
        this.largeRunning++;
        return this.large.shift();
      }
      if (this.small.length > 0) return this.small.shift();
      if (this.large.length === 0) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** The next task, or several small ones together (biggest first) up to `limits`; empty when all are handed out. */
  async nextBatch(limits: { files: number; bytes: number }): Promise<T[]> {
    const first = await this.next();
    if (!first) return [];
    const batch = [first];
    if (first.bytes >= this.largeBytes) return batch;
    let bytes = first.bytes;
    while (batch.length < limits.files && this.small.length > 0 && bytes + this.small[0].bytes <= limits.bytes) {
      const task = this.small.shift() as T;
      bytes += task.bytes;
      batch.push(task);
    }
    return batch;
  }

  finished(task: T): void {
    if (task.bytes < this.largeBytes) return;
    this.largeRunning--;
    for (const wake of this.waiting.splice(0)) wake();
  }
}

function count(summary: ImportSummary, trace: TraceCounts): void {
  const agent = (summary.byAgent[trace.agent] ??= { sessions: 0, steps: 0, toolCalls: 0 });
  for (const target of [summary, agent]) {
    target.sessions++;
    target.steps += trace.steps;
    target.toolCalls += trace.toolCalls;
  }
  summary.toolErrors += trace.toolErrors;
  summary.redactions += trace.redactions;
  summary.traceIds.push(trace.id);
}
