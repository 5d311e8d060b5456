import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { homedir, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { shortHash } from '../util/hash';
import { fastParser } from '../util/fastParse';
import { atomicWrite, readJsonFile, readTextIfExists, removeFile, writeAtomic } from '../util/io';
import { AgentId, Trace } from '../trace/model';
import {
  compactPacks,
  loadPackMap,
  PackWriter,
  readAllPacked,
  readPacked,
  type CompactionResult,
  type PackEntry,
} from './packs';
import { summarize, type TraceSummary } from '../trace/summary';
import { StagedPacks } from './stagedPack';
import { addForgotten } from './forgotten';

/** Stores traces into one pack until closed (see packs.ts). */
export interface TraceWriter {
  save(trace: Trace): Promise<void>;
  close(): Promise<void>;
}

/** Stages traces in the store, unreadable until published (see stagedPack.ts). */
export interface StagedTraces {
  save(trace: Trace): Promise<void>;
  /** Sessions and bytes staged so far. */
  readonly staged: { sessions: number; bytes: number };
  /** Makes every staged trace readable. */
  publish(): Promise<void>;
  /** Removes every staged trace. */
  discard(): Promise<void>;
}

// thousands of stored traces are read for a learning run or the Sessions view: checked without zod's copy
const checkTrace = fastParser(Trace);

function parseTrace(text: string): Trace | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = checkTrace(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The CLI's own per-user data folder: `COMBEE_STORE`, else the platform's app-data location. Never inside a repository.
 * The CLI prefers the extension's store when there is one (storeLocation.ts).
 */
export function defaultStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COMBEE_STORE) return resolve(env.COMBEE_STORE);
  switch (platform()) {
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'combee');
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'combee');
    default:
      return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'combee');
  }
}

// Checked by hand on load (isImportedFile, isSkippedFile): the index is read on every import and this is faster than a
// schema, and an entry that fails the check is dropped, so its file is read again.
export interface ImportedFile {
  agent: string;
  bytes: number;
  mtimeMs: number;
  traceIds: string[];
  // where an append-only log resumes (see incremental.ts); absent: re-read in full when changed
  offset?: number;
  head?: string;
  headBytes?: number;
  tail?: string;
  tailBytes?: number;
  // the reader's resume state as JSON text: inline when small, else in resume/<hash>.json (`stateFile`)
  state?: string;
  stateFile?: boolean;
  // the version of the reader that read it, when above 1 (SourceReader.version): an older one's files are read again
  readerVersion?: number;
  // the hashes of its first user message's opening (recurringOpenings.ts), '' for none: Codex rollouts only
  opening?: string;
}
/** Files found that are no session of any agent: not sniffed again until they change. */
interface SkippedFile {
  bytes: number;
  mtimeMs: number;
}
export interface ImportIndex {
  version: 1 | 2;
  files: Record<string, ImportedFile>;
  skipped?: Record<string, SkippedFile>;
}

const optional = (value: unknown, type: 'string' | 'number' | 'boolean') =>
  value === undefined || typeof value === type;

function isImportedFile(value: unknown): value is ImportedFile {
  const e = value as Record<string, unknown> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.agent === 'string' &&
    typeof e.bytes === 'number' &&
    typeof e.mtimeMs === 'number' &&
    Array.isArray(e.traceIds) &&
    e.traceIds.every((id) => typeof id === 'string') &&
    optional(e.offset, 'number') &&
    optional(e.head, 'string') &&
    optional(e.headBytes, 'number') &&
    optional(e.tail, 'string') &&
    optional(e.tailBytes, 'number') &&
    optional(e.state, 'string') &&
    optional(e.stateFile, 'boolean') &&
    optional(e.opening, 'string') &&
    optional(e.readerVersion, 'number')
  );
}

function isSkippedFile(value: unknown): value is SkippedFile {
  const e = value as Record<string, unknown> | null;
  return typeof e === 'object' && e !== null && typeof e.bytes === 'number' && typeof e.mtimeMs === 'number';
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Summaries of traces in packs written before indexes held them: a pack never changes, so once per process. */
const olderSummaries = new Map<string, TraceSummary>();

/** Normalized, redacted traces (in packs, see packs.ts), the import index and the readers' resume state. */
export class TraceStore {
  constructor(readonly dir: string) {}

  /** Where traces were stored one file each, before packs; still read, and removed once a pack holds the trace. */
  private legacyTraceFile(id: string): string {
    const [agent] = id.split(':');
    // an id comes from a session file or a teammate's bundle: its agent part names a folder only when it is a name
    const folder = /^[a-z0-9-]+$/.test(agent) ? agent : '_';
    return join(
      this.dir,
      'traces',
      folder,
      `${id.slice(agent.length + 1).replace(/[^A-Za-z0-9._-]/g, '_')}-${shortHash(id, 8)}.json`,
    );
  }

  private get packsDir(): string {
    return join(this.dir, 'packs');
  }

  /** A writer that stores traces together in one pack; they become visible when it is closed. */
  openPack(): TraceWriter {
    const pack = new PackWriter(this.packsDir);
    const legacy = existsSync(join(this.dir, 'traces'));
    return {
      save: async (trace) => {
        await pack.add(trace.id, traceJson(trace), summarize(trace));
        if (legacy) await removeFile(this.legacyTraceFile(trace.id));
      },
      close: () => pack.close(),
    };
  }

  /** A writer whose traces become readable only when published, all at once; discarded, they leave nothing. */
  stageTraces(): StagedTraces {
    const staged = new StagedPacks(join(this.dir, 'staging'), this.packsDir);
    const ids: string[] = [];
    return {
      save: async (trace) => {
        await staged.add(trace.id, traceJson(trace), summarize(trace));
        ids.push(trace.id);
      },
      get staged() {
        return staged.staged;
      },
      publish: async () => {
        await staged.publish();
        // a legacy copy goes only once a pack holds the trace
        if (existsSync(join(this.dir, 'traces'))) for (const id of ids) await removeFile(this.legacyTraceFile(id));
      },
      discard: () => staged.discard(),
    };
  }

  /** Stores one trace (in a pack of its own: importers use `openPack` for many). */
  async saveTrace(trace: Trace): Promise<void> {
    const writer = this.openPack();
    try {
      await writer.save(trace);
    } finally {
      await writer.close();
    }
  }

  async loadTrace(id: string): Promise<Trace | undefined> {
    const entry = (await loadPackMap(this.packsDir)).traces.get(id);
    if (entry) {
      const text = await readPacked(this.packsDir, entry);
      return text === undefined ? undefined : parseTrace(text);
    }
    // an id can come from outside (a webview message): only a known agent's name becomes a folder of the store
    if (!AgentId.safeParse(id.split(':')[0]).success) return undefined;
    const text = await readTextIfExists(this.legacyTraceFile(id));
    return text === undefined ? undefined : parseTrace(text);
  }

  /** The traces with these ids, in that order; one missing or invalid is reported and left out. */
  async loadTraces(ids: readonly string[], onInvalid?: (where: string) => void): Promise<Trace[]> {
    const map = await loadPackMap(this.packsDir);
    const traces: Trace[] = [];
    for (const id of ids) {
      const entry = map.traces.get(id);
      const text = entry ? await readPacked(this.packsDir, entry) : undefined;
      // a trace still in a legacy file (stored before packs) is read as loadTrace reads it
      const trace = text !== undefined ? parseTrace(text) : entry ? undefined : await this.loadTrace(id);
      if (trace) traces.push(trace);
      else onInvalid?.(`${id} in ${this.packsDir}`);
    }
    return traces;
  }

  /** Every stored trace that validates, by id; invalid ones (an older schema, a damaged write) are reported, not thrown. */
  async listTraces(onInvalid?: (where: string) => void): Promise<Trace[]> {
    const map = await loadPackMap(this.packsDir);
    const traces: Trace[] = [];
    for await (const { id, json } of readAllPacked(this.packsDir, map)) {
      const trace = parseTrace(json);
      if (trace) traces.push(trace);
      else onInvalid?.(`${id} in ${this.packsDir}`);
    }
    traces.push(...(await this.legacyTraces(map.traces, onInvalid)));
    return traces.sort(byId);
  }

  /**
   * The summary of every stored trace, by id, from the pack indexes alone; only traces stored before summaries were
   * (an older pack, a legacy file) are read and summarized.
   */
  async listSummaries(onInvalid?: (where: string) => void): Promise<TraceSummary[]> {
    const map = await loadPackMap(this.packsDir);
    const summaries: TraceSummary[] = [];
    const unsummarized = new Map<string, PackEntry>();
    const olderKey = (id: string, entry: PackEntry) => `${join(this.packsDir, entry.pack)}\n${id}`;
    for (const [id, entry] of map.traces) {
      const summary = entry.summary ?? olderSummaries.get(olderKey(id, entry));
      if (summary) summaries.push(summary);
      else unsummarized.set(id, entry);
    }
    if (unsummarized.size > 0) {
      for await (const { id, json } of readAllPacked(this.packsDir, { traces: unsummarized, packs: map.packs })) {
        const trace = parseTrace(json);
        if (!trace) {
          onInvalid?.(`${id} in ${this.packsDir}`);
          continue;
        }
        const summary = summarize(trace);
        olderSummaries.set(olderKey(id, unsummarized.get(id)!), summary);
        summaries.push(summary);
      }
    }
    for (const trace of await this.legacyTraces(map.traces, onInvalid)) summaries.push(summarize(trace));
    return summaries.sort(byId);
  }

  /** Traces still in legacy files that no pack holds a newer copy of; damaged ones reported. */
  private async legacyTraces(
    inPacks: ReadonlyMap<string, unknown>,
    onInvalid?: (where: string) => void,
  ): Promise<Trace[]> {
    const traces: Trace[] = [];
    for (const path of await this.legacyTraceFiles()) {
      const parsed = checkTrace(await readJsonFile(path).catch(() => undefined));
      if (!parsed.success) onInvalid?.(path);
      else if (!inPacks.has(parsed.data.id)) traces.push(parsed.data);
    }
    return traces;
  }

  private async legacyTraceFiles(): Promise<string[]> {
    const root = join(this.dir, 'traces');
    let agents: string[];
    try {
      agents = await readdir(root);
    } catch {
      return [];
    }
    const paths: string[] = [];
    for (const agent of agents) {
      const files = await readdir(join(root, agent)).catch(() => [] as string[]);
      for (const file of files) if (file.endsWith('.json')) paths.push(join(root, agent, file));
    }
    return paths;
  }

  /**
   * Forgets a stored session: no list or read shows it again, nor a copy a later import stores of the same version
   * (see forgotten.ts); compaction then removes its text. Returns its summary, or undefined when it is not stored.
   */
  async forgetTrace(id: string): Promise<TraceSummary | undefined> {
    const entry = (await loadPackMap(this.packsDir)).traces.get(id);
    const trace = entry?.summary ? undefined : await this.loadTrace(id);
    const summary = entry?.summary ?? (trace && summarize(trace));
    if (!summary) return undefined;
    await mkdir(this.packsDir, { recursive: true });
    await addForgotten(this.packsDir, summary);
    // a copy stored before packs is a file of its own: removed now
    if (AgentId.safeParse(id.split(':')[0]).success) await removeFile(this.legacyTraceFile(id));
    return summary;
  }

  /** Rewrites packs that are mostly superseded copies (see packs.ts); run after an import that read known files again. */
  async compact(): Promise<CompactionResult> {
    return compactPacks(this.packsDir);
  }

  /**
   * The import index; a damaged or unknown one reads as empty, a damaged entry as absent (its file is imported
   * again). Checked entry by entry without copying: the index of thousands of sessions is read on every import.
   */
  async loadIndex(): Promise<ImportIndex> {
    const json = (await readJsonFile(join(this.dir, 'imports.json')).catch(() => undefined)) as
      Partial<ImportIndex> | undefined;
    const index: ImportIndex = { version: 2, files: {}, skipped: {} };
    if (!json || (json.version !== 1 && json.version !== 2) || typeof json.files !== 'object' || json.files === null)
      return index;
    for (const [path, entry] of Object.entries(json.files)) if (isImportedFile(entry)) index.files[path] = entry;
    for (const [path, entry] of Object.entries(json.skipped ?? {}))
      if (isSkippedFile(entry)) index.skipped![path] = entry;
    return index;
  }

  async saveIndex(index: ImportIndex): Promise<void> {
    await atomicWrite(join(this.dir, 'imports.json'), JSON.stringify(index));
  }

  private resumeFile(path: string): string {
    return join(this.dir, 'resume', `${shortHash(path, 16)}.json`);
  }

  /** A reader's bookkeeping to resume a file (ids and flags, no message text); `undefined` removes it. */
  async saveResumeState(path: string, state: unknown): Promise<void> {
    if (state === undefined) await removeFile(this.resumeFile(path));
    else await writeAtomic(this.resumeFile(path), [JSON.stringify({ path, state: state ?? null })]);
  }

  /** `undefined` when there is none (or it is damaged): the file is then read in full. */
  async loadResumeState(path: string): Promise<{ state: unknown } | undefined> {
    try {
      const json = JSON.parse((await readTextIfExists(this.resumeFile(path))) ?? 'null') as {
        path?: string;
        state?: unknown;
      } | null;
      return json?.path === path ? { state: json.state } : undefined;
    } catch {
      return undefined;
    }
  }

  async ensure(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }
}

const WRITE_BATCH_CHARS = 1 << 20;
/** Up to this many steps a trace is stringified in one call (a quarter faster); beyond, step by step. */
const WHOLE_TRACE_STEPS = 256;

/** A trace as JSON, step by step in ~1 MB pieces: a trace of a 400 MB session never becomes one giant string. */
function* traceJson(trace: Trace): Generator<string> {
  if (trace.steps.length <= WHOLE_TRACE_STEPS) {
    yield JSON.stringify(trace);
    return;
  }
  const { steps, ...rest } = trace;
  const head = JSON.stringify(rest);
  let batch: string[] = [`${head.slice(0, -1)},"steps":[`];
  let chars = 0;
  for (let i = 0; i < steps.length; i++) {
    const json = JSON.stringify(steps[i]);
    batch.push(i === 0 ? json : `,${json}`);
    chars += json.length;
    if (chars >= WRITE_BATCH_CHARS) {
      yield batch.join('');
      batch = [];
      chars = 0;
    }
  }
  batch.push(']}');
  yield batch.join('');
}
