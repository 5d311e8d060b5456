import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { readLines } from '../lines';
import type { Step, StepInput, TraceDraft } from '../model';
import { sha256 } from '../../util/hash';
import { clipMiddle, titleLine } from '../../util/text';
import { countUnknown, isRecord, storedOutput, validTime } from './common';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { readJsonDocument } from './jsonDocument';
import { lineWarnings } from './lineWarnings';
import { findHeadRecord, segments } from './sniffHead';
import { pushStep } from './sessionDraft';

// Gemini CLI keeps one file per session (research §3): a single JSON ConversationRecord up to 0.38, then an
// append-only JSONL log (metadata line, message lines, `$set` metadata updates, `$rewindTo` truncations).
// Replay follows gemini-cli's own loadConversationRecord so we see what `/resume` would see.

const Metadata = z.looseObject({
  sessionId: z.string(),
  projectHash: z.string().optional(),
  startTime: z.string().optional(),
  lastUpdated: z.string().optional(),
  summary: z.string().optional(),
  kind: z.string().optional(),
  directories: z.array(z.string()).optional(),
  messages: z.array(z.unknown()).optional(),
});
type Metadata = z.infer<typeof Metadata>;
const MessageRecord = z.looseObject({
  id: z.string().optional(),
  timestamp: z.string().optional(),
  type: z.string(),
  content: z.unknown().optional(),
  displayContent: z.unknown().optional(),
  /** Not written by Gemini CLI; raw Gemini API `Content` shape seen in hand-made files. */
  parts: z.unknown().optional(),
  toolCalls: z.array(z.unknown()).optional(),
  model: z.string().optional(),
});
type MessageRecord = z.infer<typeof MessageRecord>;
const ToolCallRecord = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  args: z.unknown().optional(),
  result: z.unknown().optional(),
  status: z.string().optional(),
  timestamp: z.string().optional(),
  resultDisplay: z.unknown().optional(),
});
const FunctionResponse = z.looseObject({ response: z.unknown().optional() });

/** Message types that carry nothing for a lesson (the UI's own notices). */
const QUIET_TYPES = new Set(['warning']);
const SHELL_TOOLS = new Set(['run_shell_command', 'shell']);

interface Replay {
  meta?: Metadata;
  /** Message records by id, in first-insertion order (a re-sent id replaces its record in place). */
  messages: Map<string, unknown>;
  anonymous: number;
  unknown: Record<string, number>;
}

export const geminiCliReader: SourceReader = {
  agent: 'gemini-cli',

  accepts(path) {
    const name = basename(path);
    // logs.json holds prompts only; checkpoints are raw API Content[]: neither has the session record.
    if (name === 'logs.json' || name.startsWith('checkpoint-')) return false;
    return name.endsWith('.json') || name.endsWith('.jsonl');
  },

  sniff(_path, head) {
    // `projectHash` appears in no other agent's format; the first record always carries it with `sessionId`.
    const text = head.replace(/^\uFEFF/, '').trimStart();
    if (
      head.includes('"projectHash"') &&
      findHeadRecord(head, (r) => typeof r.sessionId === 'string' && 'projectHash' in r)
    )
      return 'specific';
    if (!text.startsWith('{')) return false;
    const nl = text.indexOf('\n');
    const first = nl === -1 ? text : text.slice(0, nl);
    if (/"projectHash"\s*:/.test(first) && /"sessionId"\s*:/.test(first)) return 'specific';
    // Pretty-printed legacy JSON: the keys sit on their own lines.
    return /^\{\s*$/.test(first) &&
      /^\s*"projectHash"\s*:/m.test(text) &&
      /^\s*"sessionId"\s*:/m.test(text) &&
      /^\s*"messages"\s*:/m.test(text)
      ? 'specific'
      : false;
  },

  claims(path) {
    // ~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.json[l]
    const up = segments(path);
    return up[1] === 'chats' && /^session-.+\.jsonl?$/.test(up[0]);
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const replay: Replay = { messages: new Map(), anonymous: 0, unknown: {} };
    if (file.path.endsWith('.json')) {
      const handled = await readWholeFile(file, ctx, replay);
      if (handled === 'skipped') return [];
      if (handled === 'not-json') await readJsonl(file, ctx, replay);
    } else {
      await readJsonl(file, ctx, replay);
    }
    return finish(file, ctx, replay);
  },
};

async function readWholeFile(
  file: SessionFile,
  ctx: ReadContext,
  replay: Replay,
): Promise<'done' | 'skipped' | 'not-json'> {
  // Not one JSON document: a migrated or misnamed JSONL log.
  const meta = await readJsonDocument(file, ctx, Metadata, {
    name: 'single-JSON Gemini CLI session',
    expected: '{sessionId, messages}',
    notJson: 'quiet',
  });
  if (meta === 'not-json') return 'not-json';
  if (!meta) return 'skipped';
  replay.meta = { ...meta, messages: undefined };
  for (const message of meta.messages ?? []) addMessage(replay, message);
  return 'done';
}

async function readJsonl(file: SessionFile, ctx: ReadContext, replay: Replay): Promise<void> {
  const warnings = lineWarnings(file, ctx, 'Gemini CLI');
  let checkpoint: unknown[] | undefined;
  const result = await readLines(
    file.path,
    ({ text, lineNo }) => {
      const json = warnings.record(text, lineNo);
      if (!json) return;
      if (typeof json.$rewindTo === 'string') {
        rewind(replay, json.$rewindTo);
      } else if (typeof json.id === 'string') {
        addMessage(replay, json);
      } else if (isRecord(json.$set)) {
        const { messages, ...rest } = json.$set;
        if (Array.isArray(messages) && messages.length > 0) checkpoint = messages;
        replay.meta = { ...(replay.meta ?? { sessionId: '' }), ...rest } as Metadata;
      } else if (typeof json.sessionId === 'string') {
        const meta = Metadata.safeParse(json);
        if (meta.success) replay.meta = { ...replay.meta, ...meta.data };
        else countUnknown(replay.unknown, 'metadata:invalid');
      } else {
        const op = Object.keys(json).find((k) => k.startsWith('$'));
        countUnknown(
          replay.unknown,
          op ? `op:${op}` : typeof json.type === 'string' ? `message:${json.type}:no-id` : 'line:untyped',
        );
      }
    },
    { maxLineBytes: ctx.maxLineBytes },
  );
  warnings.done(result.skippedLongLines);
  // A `$set.messages` checkpoint is the whole history; gemini-cli prefers it over the replayed lines.
  if (checkpoint) {
    replay.messages.clear();
    for (const message of checkpoint) addMessage(replay, message);
  }
}

function addMessage(replay: Replay, message: unknown): void {
  const id = isRecord(message) && typeof message.id === 'string' ? message.id : `#${++replay.anonymous}`;
  replay.messages.set(id, message);
}

function rewind(replay: Replay, id: string): void {
  // Like gemini-cli: drop the message and all after it; an unknown id empties the history.
  let found = false;
  for (const key of [...replay.messages.keys()]) {
    if (key === id) found = true;
    if (found) replay.messages.delete(key);
  }
  if (!found) replay.messages.clear();
}

async function finish(file: SessionFile, ctx: ReadContext, replay: Replay): Promise<TraceDraft[]> {
  const meta = replay.meta;
  if (!meta?.sessionId) {
    if (replay.messages.size > 0) ctx.warn(`${file.path}: no Gemini CLI session metadata (sessionId) found; skipped`);
    return [];
  }
  const steps: Step[] = [];
  const unknown = replay.unknown;
  const calls = { synthetic: 0 };
  const subagent = meta.kind === 'subagent';
  let model: string | undefined;
  let firstPrompt: string | undefined;
  let lastTime: string | undefined;
  const push = (step: StepInput, time: string | undefined) => {
    pushStep(steps, step, time, subagent);
    if (time) lastTime = time;
  };

  for (const raw of replay.messages.values()) {
    const parsed = MessageRecord.safeParse(raw);
    if (!parsed.success) {
      countUnknown(unknown, 'message:invalid');
      continue;
    }
    const m = parsed.data;
    const time = validTime(m.timestamp) ? m.timestamp : undefined;
    switch (m.type) {
      case 'user': {
        // displayContent is what the person typed; content may carry expanded @file text.
        const text = partsText(m.displayContent ?? m.content).trim();
        if (!text) break;
        firstPrompt ??= titleLine(text);
        push({ kind: 'user', text }, time);
        break;
      }
      case 'gemini':
      case 'model': {
        if (m.type === 'model') countUnknown(unknown, 'message:model');
        if (m.model) model = m.model;
        const text = partsText(m.content ?? m.parts).trim();
        if (text) push({ kind: 'assistant', text, model: m.model ?? model }, time);
        for (const call of m.toolCalls ?? []) applyToolCall(call, time, push, unknown, calls, ctx.maxOutputChars);
        break;
      }
      case 'error': {
        const text = partsText(m.content).trim();
        push({ kind: 'error', text: text || 'error' }, time);
        break;
      }
      case 'info': {
        // The only info line that matters: the user pressed Esc mid-turn.
        const text = partsText(m.content).trim();
        if (/^request cancelled/i.test(text)) push({ kind: 'error', text: `turn aborted: ${text}` }, time);
        break;
      }
      default:
        if (!QUIET_TYPES.has(m.type)) countUnknown(unknown, `message:${m.type}`);
    }
  }
  if (steps.length === 0) return [];
  const parentDir = basename(dirname(file.path));
  return [
    {
      id: `gemini-cli:${meta.sessionId}`,
      agent: 'gemini-cli',
      cwd: await findCwd(file.path, meta),
      title: meta.summary ?? firstPrompt,
      startedAt: validTime(meta.startTime) ? meta.startTime : steps[0].time,
      endedAt: validTime(meta.lastUpdated) ? meta.lastUpdated : lastTime,
      source: { path: file.path, bytes: file.bytes },
      // Subagent logs sit in chats/<parentSessionId>/<sessionId>.jsonl.
      parentId: subagent && parentDir !== 'chats' ? `gemini-cli:${parentDir}` : undefined,
      steps,
      unknown,
      warnings: [],
    },
  ];
}

type Push = (step: StepInput, time: string | undefined) => void;

function applyToolCall(
  raw: unknown,
  messageTime: string | undefined,
  push: Push,
  unknown: Record<string, number>,
  calls: { synthetic: number },
  maxChars: number,
): void {
  const parsed = ToolCallRecord.safeParse(raw);
  if (!parsed.success) {
    countUnknown(unknown, 'toolCall:invalid');
    return;
  }
  const call = parsed.data;
  const time = validTime(call.timestamp) ? call.timestamp : messageTime;
  const callId = call.id ?? `gemini-call-${++calls.synthetic}`;
  const tool = call.name ?? 'unknown';
  const args = isRecord(call.args) ? call.args : {};
  const command = typeof args.command === 'string' ? args.command : undefined;
  push({ kind: 'tool_call', callId, tool, command, input: clipMiddle(jsonText(call.args ?? {}), maxChars).text }, time);

  const result = resultText(call.result);
  const display = typeof call.resultDisplay === 'string' ? call.resultDisplay : undefined;
  const status = call.status;
  const finished =
    result !== undefined ||
    display !== undefined ||
    status === 'success' ||
    status === 'error' ||
    status === 'cancelled';
  if (!finished) return;
  const output = result?.text ?? display ?? '';
  const exit = SHELL_TOOLS.has(tool) ? /Exit Code: (-?\d+)/i.exec(output) : null;
  const exitCode = exit ? Number(exit[1]) : undefined;
  const cancelled = status === 'cancelled';
  push(
    {
      kind: 'tool_result',
      callId,
      ...storedOutput(output, maxChars),
      isError: status === 'error' || cancelled || result?.error === true || (exitCode !== undefined && exitCode !== 0),
      exitCode,
      interrupted: cancelled ? true : undefined,
    },
    time,
  );
}

/** A tool call's `result`: Part[] holding `functionResponse.response` as `{output}` or `{error}`. */
function resultText(result: unknown): { text: string; error: boolean } | undefined {
  if (result === undefined || result === null) return undefined;
  const parts = Array.isArray(result) ? result : [result];
  const texts: string[] = [];
  let error = false;
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') texts.push(part.text);
    const fr = FunctionResponse.safeParse(part.functionResponse);
    if (!fr.success) continue;
    const response = fr.data.response;
    if (isRecord(response)) {
      if (response.error !== undefined) {
        error = true;
        texts.push(typeof response.error === 'string' ? response.error : jsonText(response.error));
      } else if (typeof response.output === 'string') {
        texts.push(response.output);
      } else {
        texts.push(jsonText(response));
      }
    } else if (typeof response === 'string') {
      texts.push(response);
    }
  }
  return { text: texts.join('\n'), error };
}

/** `PartListUnion`: a string, one Part or Part[]; only text parts are kept. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  return parts
    .map((p) =>
      typeof p === 'string' ? p : isRecord(p) && typeof p.text === 'string' && p.thought !== true ? p.text : '',
    )
    .filter(Boolean)
    .join('\n');
}

/**
 * The files record only a sha256 of the project root. The metadata's workspace directories (first one is the root)
 * win; else the `.project_root` marker next to `chats/` (≥0.29); else a `projects.json` entry whose path hashes to it.
 */
async function findCwd(path: string, meta: Metadata): Promise<string | undefined> {
  const first = meta.directories?.find((d) => d.trim());
  if (first) return first;
  let dir = dirname(path);
  for (let i = 0; i < 3 && basename(dir) !== 'chats'; i++) dir = dirname(dir);
  if (basename(dir) !== 'chats') return undefined;
  const projectDir = dirname(dir);
  const marker = await readSmall(join(projectDir, '.project_root'));
  if (marker?.trim()) return marker.trim();
  if (!meta.projectHash) return undefined;
  const registry = await readSmall(join(dirname(dirname(projectDir)), 'projects.json'));
  if (!registry) return undefined;
  try {
    const parsed: unknown = JSON.parse(registry);
    const projects = isRecord(parsed) && isRecord(parsed.projects) ? parsed.projects : {};
    return Object.keys(projects).find((root) => sha256(root) === meta.projectHash);
  } catch {
    return undefined;
  }
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > 4 * 1024 * 1024) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
