import { resolve } from 'node:path';
import { discoverSessions } from './discover';
import { DEFAULT_MAX_LINE_BYTES } from './lines';
import type { AgentId, Trace } from './model';
import { normalizeTrace } from './normalize';
import { createRedactor, type RedactionOptions } from './redact';
import { readerFor } from './sources';
import type { SessionFile } from './sources/types';
import type { TraceStore } from './store';

export interface ReadLimits {
  maxLineBytes: number;
  maxOutputChars: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxOutputChars: 20_000 };

export interface FileImportResult {
  traces: Trace[];
  warnings: string[];
}

/** Reads, redacts and validates one session file. The unit of work the worker pool runs. */
export async function importFile(file: SessionFile, limits: ReadLimits, redaction: RedactionOptions): Promise<FileImportResult> {
  const warnings: string[] = [];
  const reader = readerFor(file.agent);
  if (!reader) return { traces: [], warnings: [`${file.path}: no reader for agent ${file.agent}`] };
  const redactor = createRedactor(redaction, (source, error) => warnings.push(`invalid redaction pattern ${JSON.stringify(source)}: ${error}`));
  try {
    const drafts = await reader.read(file, { warn: (m) => warnings.push(m), ...limits });
    const traces: Trace[] = [];
    for (const draft of drafts) {
      try {
        traces.push(normalizeTrace({ ...draft, warnings: [...draft.warnings, ...warnings] }, redactor));
      } catch (error) {
        warnings.push(`${file.path}: session ${draft.id} failed validation and was skipped (${(error as Error).message.slice(0, 200)})`);
      }
    }
    return { traces, warnings };
  } catch (error) {
    warnings.push(`${file.path}: could not be read (${(error as Error).message})`);
    return { traces: [], warnings };
  }
}

export interface AgentCounts {
  sessions: number;
  steps: number;
  toolCalls: number;
}

export interface ImportSummary extends AgentCounts {
  files: number;
  unchangedFiles: number;
  bytes: number;
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
  /** Runs `importFile` elsewhere (the worker pool); defaults to in-process. */
  runFile?: (file: SessionFile, limits: ReadLimits, redaction: RedactionOptions) => Promise<FileImportResult>;
  /** Concurrent files in flight. */
  concurrency?: number;
}

/** Imports every session file under `from` into the store; unchanged files (same size and mtime) are skipped. */
export async function importSessions(options: ImportOptions): Promise<ImportSummary> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const redaction = options.redaction ?? {};
  const runFile = options.runFile ?? importFile;
  const summary: ImportSummary = {
    sessions: 0, steps: 0, toolCalls: 0, files: 0, unchangedFiles: 0, bytes: 0, toolErrors: 0,
    warnings: 0, warningMessages: [], redactions: 0, byAgent: {}, traceIds: [],
  };
  const warn = (message: string) => {
    summary.warnings++;
    if (summary.warningMessages.length < 200) summary.warningMessages.push(message);
  };
  await options.store.ensure();
  const files = await discoverSessions(resolve(options.from), { agent: options.agent, warn });
  const index = await options.store.loadIndex();
  const todo = files.filter((file) => {
    const known = index.files[file.path];
    const unchanged = known && known.bytes === file.bytes && known.mtimeMs === file.mtimeMs;
    if (unchanged) summary.unchangedFiles++;
    return !unchanged;
  });
  summary.files = files.length;

  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      options.signal?.throwIfAborted();
      const file = todo[next++];
      const result = await runFile(file, limits, redaction);
      for (const message of result.warnings) warn(message);
      for (const trace of result.traces) {
        await options.store.saveTrace(trace);
        count(summary, trace);
      }
      index.files[file.path] = { agent: file.agent, bytes: file.bytes, mtimeMs: file.mtimeMs, traceIds: result.traces.map((t) => t.id) };
      summary.bytes += file.bytes;
      options.onProgress?.(++done, todo.length, file.path);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  } finally {
    // What was imported before a cancel or failure stays imported.
    await options.store.saveIndex(index);
  }
  return summary;
}

function count(summary: ImportSummary, trace: Trace): void {
  const toolCalls = trace.steps.filter((s) => s.kind === 'tool_call').length;
  const agent = (summary.byAgent[trace.agent] ??= { sessions: 0, steps: 0, toolCalls: 0 });
  for (const target of [summary, agent]) {
    target.sessions++;
    target.steps += trace.steps.length;
    target.toolCalls += toolCalls;
  }
  summary.toolErrors += trace.outcome.toolErrors;
  summary.redactions += trace.redactions;
  summary.traceIds.push(trace.id);
}
