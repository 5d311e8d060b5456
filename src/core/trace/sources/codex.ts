import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { titleLine } from '../../util/text';
import type { ResumeInput } from '../incremental';
import { clipLimitsFor } from '../jsonClip';
import { readLines } from '../lines';
import type { Step, TraceDraft } from '../model';
import { relativeWorkdir } from '../workdir';
import { openingKey, openingOf } from '../recurringOpenings';
import { applyLine, applyResponseItem, type Accumulator } from './codexRecords';
import { countUnknown, isRecord, validTime } from './common';
import { readJsonDocument } from './jsonDocument';
import { lineWarnings } from './lineWarnings';
import { finishSession, seedFromTrace } from './sessionDraft';
import { findHeadRecord, segments } from './sniffHead';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { readZstdLines } from './zstdLines';

// Codex rollouts come in three eras (see research §2.2): the current `{timestamp,type,payload}` JSONL envelopes,
// early-Rust JSONL with bare items after a bare SessionMeta line, and the TypeScript CLI's single JSON file.
// Only the fields used are validated; everything else passes through or is counted in `unknown`.

const EraOneFile = z.looseObject({
  session: z
    .looseObject({ id: z.string().optional(), timestamp: z.string().optional(), version: z.string().optional() })
    .optional(),
  items: z.array(z.unknown()),
});
const UUID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl?(?:\.zst)?$/i;

const ROLLOUT_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

export const codexReader: SourceReader = {
  agent: 'codex',
  // 2: each call's folder, expanded prompts, Codex's own context markers
  version: 2,

  accepts(path) {
    const name = basename(path);
    // auth.json sits next to the sessions and holds a credential: never even sniff it.
    if (name === 'auth.json') return false;
    return name.endsWith('.jsonl') || name.endsWith('.json') || name.endsWith('.jsonl.zst');
  },

  sniff(path, head) {
    const name = basename(path);
    if (name.endsWith('.jsonl.zst')) return name.startsWith('rollout-');
    const text = head.replace(/^\uFEFF/, '');
    if (
      head.includes('"payload"') &&
      findHeadRecord(head, (r) => typeof r.type === 'string' && ROLLOUT_TYPES.has(r.type) && isRecord(r.payload))
    )
      return 'specific';
    if (/"type"\s*:\s*"session_meta"/.test(text)) return true;
    if (/"payload"\s*:/.test(text) && /"type"\s*:\s*"response_item"/.test(text)) return true;
    const nl = text.indexOf('\n');
    const first = nl === -1 ? text : text.slice(0, nl);
    if (/^\s*\{/.test(first) && /"id"\s*:/.test(first) && /"instructions"\s*:/.test(first)) {
      // A huge instructions string can push the second line past the sniffed head.
      if (nl === -1) return name.startsWith('rollout-');
      if (/"type"\s*:\s*"(?:message|function_call|local_shell_call|reasoning)"/.test(text.slice(nl + 1))) return true;
    }
    return /^\s*\{\s*"session"\s*:\s*\{/.test(text) && (/"items"\s*:\s*\[/.test(text) || name.startsWith('rollout-'));
  },

  claims(path) {
    return /^rollout-.+\.jsonl(?:\.zst)?$/.test(segments(path)[0]);
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    // Codex prefers the plain file when both exist; then the .zst is a stale copy.
    if (file.path.endsWith('.jsonl.zst') && existsSync(file.path.slice(0, -'.zst'.length))) {
      ctx.readElsewhere?.(file.path.slice(0, -'.zst'.length));
      return [];
    }
    const acc = newAccumulator(file, ctx);
    if (file.path.endsWith('.jsonl.zst')) {
      await readZstd(acc);
    } else if (file.path.endsWith('.json')) {
      const handled = await readWholeFile(acc);
      if (handled === 'skipped') return [];
      if (handled === 'not-json') await readJsonl(acc);
    } else {
      await readJsonl(acc);
    }
    return finish(acc);
  },
};

/** How far into a rollout its first user message is looked for: past the instructions and injected context. */
const OPENING_HEAD_BYTES = 1024 * 1024;

/**
 * The opening (see recurringOpenings.ts) of a plain rollout's first user message, read from its head the way the
 * reader reads it; '' when there is none to compare.
 */
export async function codexOpening(file: SessionFile, maxLineBytes: number): Promise<string> {
  if (!file.path.endsWith('.jsonl')) return '';
  const ctx: ReadContext = {
    warn: () => {},
    tooLarge: () => {},
    maxLineBytes,
    maxOutputChars: 8_000,
    maxDocumentBytes: 0,
    maxSqliteBytes: 0,
  };
  const acc = newAccumulator(file, ctx);
  const firstUser = () => acc.entries.find((e) => e.step.kind === 'user')?.step;
  await readLines(
    file.path,
    ({ text }) => {
      if (firstUser()) return;
      try {
        const json: unknown = JSON.parse(text);
        if (isRecord(json)) applyLine(acc, json);
      } catch {
        // a damaged line: the reader warns about it
      }
    },
    { maxLineBytes, end: OPENING_HEAD_BYTES, clipStrings: clipLimitsFor(ctx.maxOutputChars) },
  );
  const step = firstUser();
  return step?.kind === 'user' ? openingOf(step.text) : '';
}

function newAccumulator(file: SessionFile, ctx: ReadContext): Accumulator {
  return {
    file,
    ctx,
    sidechain: false,
    metaSeen: false,
    entries: [],
    sawResponseMessage: false,
    lastUserEntry: -1,
    results: new Map(),
    pendingExit: new Map(),
    pendingFailed: new Set(),
    syntheticCalls: 0,
    unknown: {},
  };
}

/** Era 1: one pretty-printed JSON document, rewritten on every turn. */
async function readWholeFile(acc: Accumulator): Promise<'done' | 'skipped' | 'not-json'> {
  // Not one JSON document: maybe JSONL under a .json name.
  const document = await readJsonDocument(acc.file, acc.ctx, EraOneFile, {
    name: 'single-JSON Codex session',
    expected: '{session, items}',
    notJson: 'quiet',
  });
  if (document === 'not-json') return 'not-json';
  if (!document) return 'skipped';
  const session = document.session;
  if (session) {
    acc.metaSeen = true;
    acc.id = session.id;
    acc.version = session.version;
    if (validTime(session.timestamp)) acc.startedAt = session.timestamp;
  }
  for (const item of document.items) {
    if (isRecord(item) && typeof item.type === 'string') applyResponseItem(acc, item, undefined);
    else countUnknown(acc.unknown, 'item:invalid');
  }
  return 'done';
}

/** Eras 2 and 3: one JSON object per line; an era is recognized per line, so a mixed file still reads. */
async function readJsonl(acc: Accumulator): Promise<void> {
  const { ctx } = acc;
  // Only a plain rollout is append-only: it resumes where the last import stopped.
  const resume = ctx.resume && seedAccumulator(acc, ctx.resume) ? ctx.resume : undefined;
  const sink = lineSink(acc);
  const result = await readLines(acc.file.path, ({ text, lineNo }) => sink.line(text, lineNo), {
    maxLineBytes: ctx.maxLineBytes,
    start: resume?.start,
    clipStrings: clipLimitsFor(ctx.maxOutputChars),
  });
  ctx.checkpoint?.(result, resumeState(acc));
  // a line cut short at the end: a session lost to damage, not one with nothing in it yet
  if (result.trailingBytes > 0) acc.damaged = true;
  sink.done(result.skippedLongLines);
}

/** What a resumed read needs beyond the stored trace: ids, flags and counters, never message text. */
interface SavedRollout {
  id?: string;
  sidechain: boolean;
  metaSeen: boolean;
  model?: string;
  threadTitle: boolean;
  sawResponseMessage: boolean;
  pendingExit: Array<[string, number]>;
  pendingFailed: string[];
  syntheticCalls: number;
  /** Steps taken from event_msg copies (kept only while no response_item message was seen): dropped if one comes. */
  eventSteps: number[];
}

function resumeState(acc: Accumulator): SavedRollout {
  return {
    id: acc.id,
    sidechain: acc.sidechain,
    metaSeen: acc.metaSeen,
    model: acc.model,
    threadTitle: acc.threadName !== undefined,
    sawResponseMessage: acc.sawResponseMessage,
    pendingExit: [...acc.pendingExit],
    pendingFailed: [...acc.pendingFailed],
    syntheticCalls: acc.syntheticCalls,
    eventSteps: acc.sawResponseMessage ? [] : acc.entries.flatMap((e, i) => (e.fromEvent ? [i] : [])),
  };
}

/** Continues the stored trace (its redacted steps and fields) with the saved bookkeeping; false: read from the start. */
function seedAccumulator(acc: Accumulator, resume: ResumeInput): boolean {
  const trace = resume.traces[0];
  const saved = resume.state as SavedRollout | undefined;
  if (!trace || !saved || resume.traces.length !== 1) return false;
  const fromEvent = new Set(saved.eventSteps);
  acc.entries = trace.steps.map((step, i) => ({ step, fromEvent: fromEvent.has(i) || undefined }));
  for (const { step } of acc.entries) if (step.kind === 'tool_result') acc.results.set(step.callId, step);
  acc.entries.forEach((e, i) => {
    if (e.step.kind === 'user') acc.lastUserEntry = i;
  });
  seedFromTrace(acc, trace);
  acc.id = saved.id;
  acc.parentId = trace.parentId;
  acc.sidechain = saved.sidechain;
  acc.metaSeen = saved.metaSeen;
  acc.model = saved.model;
  acc.threadName = saved.threadTitle ? trace.title : undefined;
  acc.sawResponseMessage = saved.sawResponseMessage;
  acc.pendingExit = new Map(saved.pendingExit);
  acc.pendingFailed = new Set(saved.pendingFailed);
  acc.syntheticCalls = saved.syntheticCalls;
  return true;
}

/** The handling of one JSONL line, shared by plain and compressed rollouts; bad lines are warned about up to 3 times. */
function lineSink(acc: Accumulator): {
  line(text: string, lineNo: number): void;
  done(skippedLongLines: number): void;
} {
  const warnings = lineWarnings(acc.file, acc.ctx, 'Codex');
  return {
    line(text, lineNo) {
      const json = warnings.record(text, lineNo);
      if (json) applyLine(acc, json);
      else acc.damaged = true;
    },
    done(skippedLongLines) {
      if (skippedLongLines > 0) acc.damaged = true;
      warnings.done(skippedLongLines);
    },
  };
}

/** A `.jsonl.zst` rollout: its lines as they decompress (see zstdLines.ts), each handled like a plain file's. */
async function readZstd(acc: Accumulator): Promise<void> {
  const sink = lineSink(acc);
  const read = await readZstdLines(acc.file.path, acc.ctx, (text, lineNo) => sink.line(text, lineNo));
  sink.done(read.skippedLongLines);
}

function finish(acc: Accumulator): TraceDraft[] {
  // event_msg user/agent messages repeat the response_item ones: keep them only when those are missing.
  const entries = acc.sawResponseMessage ? acc.entries.filter((e) => !e.fromEvent) : acc.entries;
  const steps = entries.map((e, index) => {
    const step = e.step as Step;
    step.index = index;
    if (step.kind === 'tool_call' && step.workdir !== undefined) step.workdir = relativeWorkdir(step.workdir, acc.cwd);
    return step;
  });
  // Codex writes the header when a session opens: one closed before the first turn has nothing else.
  if (steps.length === 0 && acc.metaSeen && !acc.damaged && !acc.ctx.resume) acc.ctx.empty?.();
  markExpandedPrompt(steps, acc.ctx.recurringOpenings);
  const firstUser = steps.find((s) => s.kind === 'user' && !s.isMeta) ?? steps.find((s) => s.kind === 'user');
  const fromName =
    UUID_IN_NAME.exec(basename(acc.file.path))?.[1] ?? basename(acc.file.path).replace(/\.jsonl?(?:\.zst)?$/, '');
  const trace = finishSession(
    { steps, unknown: acc.unknown },
    {
      id: `codex:${acc.id ?? fromName}`,
      agent: 'codex',
      agentVersion: acc.version,
      cwd: acc.cwd,
      title: acc.threadName ?? (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
      startedAt: acc.startedAt,
      endedAt: acc.endedAt,
      source: { path: acc.file.path, bytes: acc.file.bytes },
      parentId: acc.parentId,
    },
  );
  return trace ? [trace] : [];
}

/**
 * A first user message that opens many sessions of the import verbatim is a prompt the agent expanded (a custom
 * prompt, a persona): kept, marked as context, so the title and the user's words start after it.
 */
function markExpandedPrompt(steps: Step[], recurring: ReadonlySet<string> | undefined): void {
  const first = steps.find((s) => s.kind === 'user');
  if (first?.kind !== 'user' || first.isMeta || !recurring?.size) return;
  const key = openingKey(openingOf(first.text));
  if (key && recurring.has(key)) first.isMeta = true;
}
