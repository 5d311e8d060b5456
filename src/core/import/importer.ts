// The host side of an import: the walk, the import index, which files to read again, and the batches and large
// files handed to the worker pool (or run here without one).
import { resolve, sep } from 'node:path';
import { TraceStore } from '../store/traceStore';
import type { AgentId } from '../trace/model';
import { type RedactionOptions } from '../trace/redact';
import { walkCandidates } from '../trace/scan';
import { readByCurrentReader } from '../trace/sources';
import { skipCounter, type Skipped } from '../trace/skipped';

import { runImportTask, type BatchFailure, type ImportTask, type ImportTaskResult, type TraceCounts } from './fileTask';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './limits';
import { applyOpenings } from './openings';

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
    if (known && known.bytes === file.bytes && known.mtimeMs === file.mtimeMs && readByCurrentReader(known)) {
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
  const openings = await applyOpenings(found, index, todo, limits.maxLineBytes);
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
      const opening = openings?.byPath.get(task.path);
      index.files[task.path] = opening === undefined ? result.entry : { ...result.entry, opening };
      delete skipped[task.path];
      summary.files++;
      summary.bytes += task.bytes;
      summary.bytesRead += result.bytesRead;
      if (result.mode === 'resumed') summary.resumedFiles++;
      if (result.restart) summary.restartedFiles++;
      for (const trace of result.traces) count(summary, trace);
    } else if (result.mode === 'empty') {
      skip('empty', task.path);
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
