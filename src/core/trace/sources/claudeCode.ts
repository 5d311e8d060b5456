import { basename, dirname, sep } from 'node:path';
import { z } from 'zod';
import { clipLimitsFor, type JsonClipLimits } from '../jsonClip';
import { readLines } from '../lines';
import type { ResumeInput } from '../incremental';
import type { StepInput, Trace, TraceDraft } from '../model';
import { fastParser } from '../../util/fastParse';
import { headOf, titleLine } from '../../util/text';
import { shortHash } from '../../util/hash';
import { countUnknown, storedOutput } from './common';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { lineWarnings } from './lineWarnings';
import { finishSession, newSessionDraft, noteTime, pushStep, seedFromTrace, type SessionDraft } from './sessionDraft';
import { findHeadRecord, segments } from './sniffHead';
import { persistedOutput, toolResultsFolder } from './claudePersisted';
import { clippedInput } from './clipInput';
import { applyQueueOperation, isQueuedDelivery, type QueuedMessage } from './claudeQueue';
import { relativeWorkdir } from '../workdir';

// Claude Code writes one JSON object per line; only the fields we use are validated (other keys are ignored).
// Blocks are validated one by one, each by its own schema where it is used (an odd block is counted, not fatal).
const ContentBlocks = z.array(z.unknown());
const Message = z.object({
  id: z.string().optional(),
  role: z.string().optional(),
  model: z.string().optional(),
  content: z.union([z.string(), ContentBlocks]).optional(),
});
const Envelope = z.object({
  type: z.string(),
  uuid: z.string().optional(),
  sessionId: z.string().optional(),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  version: z.string().optional(),
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  agentId: z.string().optional(),
  subtype: z.string().optional(),
  message: Message.optional(),
  toolUseResult: z.unknown().optional(),
  summary: z.string().optional(),
  aiTitle: z.string().optional(),
  customTitle: z.string().optional(),
  content: z.unknown().optional(),
  error: z.unknown().optional(),
  sourceToolUseID: z.string().optional(),
  operation: z.string().optional(),
});
type Envelope = z.infer<typeof Envelope>;

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ToolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  is_error: z.boolean().optional(),
});
const ToolUseResult = z.looseObject({
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  interrupted: z.boolean().optional(),
  agentId: z.string().optional(),
});
// every line and block goes through these: checked without zod's per-parse copy (see fastParse)
const parseEnvelope = fastParser(Envelope);
const parseTextBlock = fastParser(TextBlock);
const parseToolUseBlock = fastParser(ToolUseBlock);
const parseToolResultBlock = fastParser(ToolResultBlock);
const parseToolUseResult = fastParser(ToolUseResult);

/**
 * `toolUseResult` repeats what the tool_result block holds (the output, or a whole edited file): only its flags and,
 * when the block has no text, a short stdout are used, so its long strings are cut hard before parsing.
 */
function clipLimits(maxOutputChars: number): JsonClipLimits {
  return { ...clipLimitsFor(maxOutputChars), under: { key: 'toolUseResult', headBytes: 1024, tailBytes: 1024 } };
}

/** Known record types that carry nothing a lesson can use. */
const IGNORED_TYPES = new Set([
  'file-history-snapshot',
  'progress',
  'attachment',
  'permission-mode',
  'mode',
  'worktree-state',
  'last-prompt',
  'agent-name',
  'pr-link',
  'frame-link',
  'bridge-session',
  'started',
  'result',
  'relocated',
  'atis-latch',
]);

/** Injected, non-human user text (reminders, IDE context) is dropped from user messages. */
const INJECTED_TAGS =
  /<(system-reminder|ide_opened_file|ide_selection|post-tool-use-hook|local-command-caveat)>[\s\S]*?<\/\1>/g;

interface SessionAccumulator extends SessionDraft {
  sessionId: string;
  seenUuids: Set<string>;
  /** message.id → index of its assistant text step, to merge the one-block-per-line split. */
  assistantTextByMessage: Map<string, number>;
  cwd?: string;
  version?: string;
  title?: string;
  aiTitle?: string;
  firstPrompt?: string;
  sidechain: boolean;
  /** Messages typed while the agent worked, oldest first, until delivered (see claudeQueue.ts). */
  queue: QueuedMessage[];
  /** Where this file's persisted tool outputs are. */
  toolResults?: string;
}

const UUID_JSONL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

export const claudeCodeReader: SourceReader = {
  agent: 'claude-code',
  // 2: queued messages, persisted tool outputs, inputs cut inside their JSON; 3: calls the client never ran; 4: the
  // folder a shell call ran in, when a `cd` in an earlier call moved it
  version: 4,

  accepts(path) {
    return path.endsWith('.jsonl');
  },

  sniff(_path, head) {
    // Any record with the envelope, whatever its type (new ones keep coming) and whatever lines come before it.
    if (
      head.includes('"uuid"') &&
      findHeadRecord(
        head,
        (r) => typeof r.sessionId === 'string' && typeof r.uuid === 'string' && typeof r.type === 'string',
      )
    )
      return 'specific';
    // Records, none of them Claude's (a Gemini log also has `sessionId` and `"type":"user"`).
    if (
      findHeadRecord(
        head,
        (r) => !(r.type === 'summary' || r.type === 'queue-operation' || r.type === 'file-history-snapshot'),
      )
    )
      return false;
    // No whole record in the head (a first line longer than it), or only the ones before the first message: the keys.
    return (
      /"sessionId"\s*:/.test(head) &&
      /"type"\s*:\s*"(?:user|assistant|summary|system|queue-operation|file-history-snapshot)"/.test(head) &&
      !/^\s*\{\s*"timestamp"\s*:[^{]*"payload"\s*:/.test(head)
    );
  },

  claims(path) {
    // projects/<project>/<session uuid>.jsonl, and its subagents/agent-<id>.jsonl
    const up = segments(path);
    if (UUID_JSONL.test(up[0])) return up[2] === 'projects';
    // subagent transcripts: in the session's subagents/ folder, or (older versions) beside the sessions
    return /^agent-.+\.jsonl$/.test(up[0]) && (up[2] === 'projects' || (up[1] === 'subagents' && up[4] === 'projects'));
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const sessions = new Map<string, SessionAccumulator>();
    const fileSessionId = basename(file.path, '.jsonl');
    const nested = isSubagentFile(file.path);
    // older versions write a subagent's transcript beside the sessions: its lines carry the parent's sessionId
    const beside = !nested && /^agent-.+\.jsonl$/.test(basename(file.path));
    const subagent = nested || beside;
    const folderParent = nested ? basename(dirname(dirname(file.path))) : undefined;
    const parents = new Map<string, string>();
    const warnings = lineWarnings(file, ctx, 'Claude Code');

    if (ctx.resume) seedSessions(sessions, ctx.resume, subagent);
    const result = await readLines(
      file.path,
      ({ text, lineNo }) => {
        let parsed: Envelope;
        try {
          const json: unknown = JSON.parse(text);
          const checked = parseEnvelope(json);
          if (!checked.success) {
            warnings.bad(
              `${file.path}:${lineNo}: not a Claude Code record (${checked.error.issues[0]?.message ?? 'invalid'})`,
            );
            return;
          }
          parsed = checked.data;
        } catch {
          warnings.malformed(lineNo);
          return;
        }
        // beside the sessions, only a sidechain record is a subagent's: a session file may be named agent-… too
        const parent = folderParent ?? (beside && parsed.isSidechain === true ? parsed.sessionId : undefined);
        const ofSubagent = nested || parent !== undefined;
        const sessionKey = ofSubagent
          ? `${parent ?? fileSessionId}/${basename(file.path, '.jsonl')}`
          : (parsed.sessionId ?? fileSessionId);
        let acc = sessions.get(sessionKey);
        if (!acc) {
          acc = newAccumulator(sessionKey, ofSubagent);
          sessions.set(sessionKey, acc);
        }
        acc.toolResults ??= toolResultsFolder(file.path, nested);
        if (parent) parents.set(sessionKey, parent);
        applyRecord(acc, parsed, ctx);
      },
      {
        maxLineBytes: ctx.maxLineBytes,
        start: ctx.resume?.start,
        skip: isIgnoredLine,
        clipStrings: clipLimits(ctx.maxOutputChars),
      },
    );
    ctx.checkpoint?.(result, resumeState(sessions));
    warnings.done(result.skippedLongLines);

    const traces: TraceDraft[] = [];
    for (const acc of sessions.values()) {
      const trace = finishSession(acc, {
        id: `claude-code:${acc.sessionId}`,
        agent: 'claude-code',
        agentVersion: acc.version,
        cwd: acc.cwd,
        title: acc.aiTitle ?? acc.title ?? acc.firstPrompt,
        startedAt: acc.startedAt,
        endedAt: acc.endedAt,
        source: { path: file.path, bytes: file.bytes },
        parentId:
          nested || parents.has(acc.sessionId) || (beside && acc.sessionId.includes('/'))
            ? parentOf(acc.sessionId, parents, folderParent)
            : undefined,
      });
      if (trace) traces.push(trace);
    }
    return traces;
  },
};

/** Ignored record types with no timestamp, uuid or cwd (nothing `applyRecord` would use), skipped before parsing. */
const IGNORED_LINE = /^\{"type":"(?:file-history-snapshot|last-prompt|agent-name|permission-mode|mode)"/;
function isIgnoredLine(head: string): boolean {
  return IGNORED_LINE.test(head);
}

/** What a resumed read needs beyond the stored traces: ids and flags only, never message text. */
interface SavedSession {
  seen: string[];
  /** The last few message.id → step index pairs: an assistant message split across the resume point still merges. */
  messages: Array<[string, number]>;
  titleFrom?: 'ai' | 'summary' | 'prompt';
  /** Queued messages not delivered yet (hashes only). */
  queue?: QueuedMessage[];
  /** Fields of a session with no step yet (not stored as a trace). */
  meta?: Pick<SessionAccumulator, 'cwd' | 'version' | 'startedAt' | 'endedAt' | 'unknown'>;
}

function resumeState(sessions: Map<string, SessionAccumulator>): { sessions: Record<string, SavedSession> } {
  const saved: Record<string, SavedSession> = {};
  for (const [key, acc] of sessions) {
    saved[key] = {
      seen: [...acc.seenUuids],
      messages: [...acc.assistantTextByMessage].slice(-4),
      queue: acc.queue.length > 0 ? acc.queue : undefined,
      titleFrom:
        acc.aiTitle !== undefined
          ? 'ai'
          : acc.title !== undefined
            ? 'summary'
            : acc.firstPrompt !== undefined
              ? 'prompt'
              : undefined,
      meta:
        acc.steps.length === 0
          ? { cwd: acc.cwd, version: acc.version, startedAt: acc.startedAt, endedAt: acc.endedAt, unknown: acc.unknown }
          : undefined,
    };
  }
  return { sessions: saved };
}

/** Continues the stored traces: their (redacted) steps and fields, plus the saved bookkeeping. */
function seedSessions(sessions: Map<string, SessionAccumulator>, resume: ResumeInput, subagent: boolean): void {
  const saved = (resume.state as { sessions?: Record<string, SavedSession> } | undefined)?.sessions ?? {};
  const byKey = new Map<string, Trace>(resume.traces.map((t) => [t.id.slice('claude-code:'.length), t]));
  for (const key of new Set([...byKey.keys(), ...Object.keys(saved)])) {
    const trace = byKey.get(key);
    const state = saved[key];
    const acc = newAccumulator(key, subagent);
    acc.seenUuids = new Set(state?.seen);
    acc.assistantTextByMessage = new Map(state?.messages);
    acc.queue = state?.queue ?? [];
    if (!trace && state?.meta) Object.assign(acc, state.meta);
    if (trace) {
      acc.steps = trace.steps;
      seedFromTrace(acc, trace);
      if (state?.titleFrom === 'ai') acc.aiTitle = trace.title;
      else if (state?.titleFrom === 'summary') acc.title = trace.title;
      else if (state?.titleFrom === 'prompt') acc.firstPrompt = trace.title;
    }
    sessions.set(key, acc);
  }
}

/** The parent session of a subagent transcript: its folder's session, or the sessionId its lines carry. */
function parentOf(
  key: string,
  parents: ReadonlyMap<string, string>,
  folderParent: string | undefined,
): string | undefined {
  const parent = parents.get(key) ?? folderParent ?? (key.includes('/') ? key.split('/')[0] : undefined);
  return parent ? `claude-code:${parent}` : undefined;
}

function isSubagentFile(path: string): boolean {
  return path.includes(`${sep}subagents${sep}`) || path.includes('/subagents/');
}

function newAccumulator(sessionId: string, sidechain: boolean): SessionAccumulator {
  return {
    ...newSessionDraft(),
    sessionId,
    seenUuids: new Set(),
    assistantTextByMessage: new Map(),
    sidechain,
    queue: [],
  };
}

function applyRecord(acc: SessionAccumulator, record: Envelope, ctx: ReadContext): void {
  // Resumed and forked sessions copy earlier lines verbatim: the uuid identifies a line across copies.
  const id = record.uuid ?? queueRecordId(record);
  if (id) {
    if (acc.seenUuids.has(id)) return;
    acc.seenUuids.add(id);
  }
  noteTime(acc, record.timestamp);
  if (record.cwd) acc.cwd ??= record.cwd;
  if (record.version) acc.version = record.version;
  const time = record.timestamp;
  const sidechain = acc.sidechain || record.isSidechain === true;
  const push = (step: StepInput) => pushStep(acc.steps, step, time, sidechain);

  switch (record.type) {
    case 'user':
      applyUser(acc, record, push, ctx);
      return;
    case 'assistant':
      applyAssistant(acc, record, push, ctx.maxOutputChars);
      return;
    case 'system':
      if (record.subtype === 'api_error' || record.subtype === 'error') {
        const detail =
          typeof record.error === 'object' && record.error !== null
            ? headOf(jsonText(record.error), 500)
            : String(record.content ?? 'API error');
        push({ kind: 'error', text: detail });
      } else {
        countUnknown(acc.unknown, `system:${record.subtype ?? 'none'}`);
      }
      return;
    case 'queue-operation': {
      const typed = applyQueueOperation(acc.queue, record.operation, record.content);
      if (typed && !typed.command) acc.firstPrompt ??= titleLine(typed.text);
      if (typed) push({ kind: 'user', text: typed.text, queued: true, isMeta: typed.command ? true : undefined });
      return;
    }
    case 'summary':
      if (record.summary) acc.title ??= record.summary;
      return;
    case 'ai-title':
      if (record.aiTitle) acc.aiTitle = record.aiTitle;
      return;
    case 'custom-title':
      if (record.customTitle) acc.aiTitle = record.customTitle;
      return;
    default:
      if (!IGNORED_TYPES.has(record.type)) countUnknown(acc.unknown, record.type);
  }
}

type Push = (step: StepInput) => void;

const EXIT_LINE = /^Exit code (\d+)/m;
/** Claude Code's own refusal of a call it never ran: a sibling call failed, the input was invalid, a file not read. */
const TOOL_USE_ERROR = /^\s*<tool_use_error>/;

/** Queue records have no uuid: their time, operation and text tell a copy (a resumed session's) from a new one. */
function queueRecordId(record: Envelope): string | undefined {
  if (record.type !== 'queue-operation' || !record.timestamp) return undefined;
  const content = typeof record.content === 'string' ? shortHash(record.content, 12) : '';
  return `queue:${record.timestamp}:${record.operation ?? ''}:${content}`;
}

function blockType(block: unknown): string {
  const type = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : 'invalid';
}

function applyUser(acc: SessionAccumulator, record: Envelope, push: Push, ctx: ReadContext): void {
  const content = record.message?.content;
  if (typeof content === 'string') {
    pushUserText(acc, content, record.isMeta === true, push);
    return;
  }
  for (const block of content ?? []) {
    const type = blockType(block);
    if (type === 'text') {
      const text = parseTextBlock(block);
      if (text.success) pushUserText(acc, text.data.text, record.isMeta === true, push);
    } else if (type === 'tool_result') {
      const result = parseToolResultBlock(block);
      if (!result.success) {
        countUnknown(acc.unknown, 'tool_result:invalid');
        continue;
      }
      const extra = parseToolUseResult(record.toolUseResult);
      const preview = toolResultText(result.data.content, extra.success ? extra.data : undefined);
      const raw = persistedOutput(preview, acc.toolResults, ctx.maxLineBytes) ?? preview;
      // Claude Code puts it on the first line of a failed command's result (of its preview, when persisted)
      const exit = EXIT_LINE.exec(raw.slice(0, 300)) ?? EXIT_LINE.exec(preview.slice(0, 300));
      push({
        kind: 'tool_result',
        callId: result.data.tool_use_id ?? record.sourceToolUseID ?? 'unknown',
        ...storedOutput(raw, ctx.maxOutputChars),
        isError: result.data.is_error === true,
        exitCode: exit ? Number(exit[1]) : undefined,
        interrupted: extra.success && extra.data.interrupted ? true : undefined,
        notRun: result.data.is_error === true && TOOL_USE_ERROR.test(preview) ? true : undefined,
      });
      if (extra.success && extra.data.agentId)
        push({ kind: 'subagent', traceId: `claude-code:${acc.sessionId}/agent-${extra.data.agentId}` });
    } else if (type !== 'image' && type !== 'document') {
      countUnknown(acc.unknown, `user-block:${type}`);
    }
  }
}

function pushUserText(acc: SessionAccumulator, raw: string, isMeta: boolean, push: Push): void {
  const text = raw.replace(INJECTED_TAGS, '').trim();
  if (!text) return;
  const meta =
    isMeta || /^<(?:command-name|local-command-stdout|command-message)>/.test(text) || /^Caveat: /.test(text);
  // the message typed while the agent worked, delivered now: it is already a user turn, at the time it was typed
  if (isQueuedDelivery(acc.queue, text, meta)) return;
  if (!meta) acc.firstPrompt ??= titleLine(text);
  push({ kind: 'user', text, isMeta: meta ? true : undefined });
}

function toolResultText(
  content: z.infer<typeof ToolResultBlock>['content'],
  extra?: z.infer<typeof ToolUseResult>,
): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text as string);
    if (texts.length > 0) return texts.join('\n');
  }
  if (extra) return [extra.stdout, extra.stderr].filter(Boolean).join('\n');
  return '';
}

function applyAssistant(acc: SessionAccumulator, record: Envelope, push: Push, maxInputChars: number): void {
  const message = record.message;
  const content = message?.content;
  if (typeof content === 'string') {
    if (content.trim()) push({ kind: 'assistant', text: content, model: message?.model });
    return;
  }
  for (const block of content ?? []) {
    const type = blockType(block);
    if (type === 'text') {
      const text = parseTextBlock(block);
      if (!text.success || !text.data.text.trim()) continue;
      const existing = message?.id ? acc.assistantTextByMessage.get(message.id) : undefined;
      const step = existing !== undefined ? acc.steps[existing] : undefined;
      if (step && step.kind === 'assistant') {
        step.text += `\n${text.data.text}`;
      } else {
        push({ kind: 'assistant', text: text.data.text, model: message?.model });
        if (message?.id) acc.assistantTextByMessage.set(message.id, acc.steps.length - 1);
      }
    } else if (type === 'tool_use') {
      const use = parseToolUseBlock(block);
      if (!use.success) {
        countUnknown(acc.unknown, 'tool_use:invalid');
        continue;
      }
      const input = (use.data.input ?? {}) as Record<string, unknown>;
      const command = typeof input.command === 'string' ? input.command : undefined;
      // the shell keeps the folder a `cd` moved it to: each entry records the folder the call ran in
      const workdir =
        command !== undefined && record.cwd && acc.cwd && record.cwd !== acc.cwd
          ? relativeWorkdir(record.cwd, acc.cwd)
          : undefined;
      push({
        kind: 'tool_call',
        callId: use.data.id,
        tool: use.data.name,
        command,
        ...(workdir === undefined ? {} : { workdir }),
        input: clippedInput(use.data.input, maxInputChars),
      });
    } else if (type !== 'thinking' && type !== 'redacted_thinking') {
      countUnknown(acc.unknown, `assistant-block:${type}`);
    }
  }
}
