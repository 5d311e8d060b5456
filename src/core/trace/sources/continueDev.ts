import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Step, StepInput, TraceDraft } from '../model';
import { clipMiddle, titleLine } from '../../util/text';
import { commandFromArguments } from './toolCommand';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { readJsonDocument } from './jsonDocument';
import { countUnknown, exitCodeAtEnd, isRecord, storedOutput } from './common';
import { segments } from './sniffHead';
import { pushStep } from './sessionDraft';

// Continue keeps one JSON per session in ~/.continue/sessions/<id>.json (research §9), plus the index sessions.json,
// which is skipped (its only extra is the creation date, read from it when present). Messages have no timestamps.

const ToolCall = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.unknown().optional() }).optional(),
});
const ChatMessage = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  toolCalls: z.array(z.unknown()).optional(),
  toolCallId: z.string().optional(),
});
const ToolCallState = z.looseObject({
  toolCallId: z.string().optional(),
  toolCall: z.unknown().optional(),
  status: z.string().optional(),
  output: z.array(z.unknown()).optional(),
});
const HistoryItem = z.looseObject({
  message: ChatMessage,
  toolCallStates: z.array(z.unknown()).optional(),
});
const SessionFileSchema = z.looseObject({
  sessionId: z.string(),
  title: z.string().optional(),
  workspaceDirectory: z.string().optional(),
  history: z.array(z.unknown()),
  chatModelTitle: z.string().optional(),
});

const QUIET_ROLES = new Set(['system', 'thinking']);

interface Acc {
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  /** Tool call id → its state from the assistant item (status, output). */
  states: Map<string, z.infer<typeof ToolCallState>>;
  answered: Set<string>;
  synthetic: number;
  model?: string;
}

export const continueReader: SourceReader = {
  agent: 'continue',

  accepts(path) {
    const name = basename(path);
    return name.endsWith('.json') && name !== 'sessions.json';
  },

  sniff(_path, head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    return (
      text.startsWith('{') &&
      /"sessionId"\s*:/.test(text) &&
      /"history"\s*:\s*\[/.test(text) &&
      /"(?:workspaceDirectory|title)"\s*:/.test(text)
    );
  },

  claims(path) {
    // ~/.continue/sessions/<id>.json (sessions.json is the index)
    const up = segments(path);
    return up[1] === 'sessions' && up[2] === '.continue' && up[0].endsWith('.json') && up[0] !== 'sessions.json';
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const s = await readJsonDocument(file, ctx, SessionFileSchema, {
      name: 'Continue session',
      expected: '{sessionId, history}',
    });
    if (!s || s === 'not-json') return [];
    const acc: Acc = {
      ctx,
      steps: [],
      unknown: {},
      states: new Map(),
      answered: new Set(),
      synthetic: 0,
      model: s.chatModelTitle,
    };
    let badItems = 0;
    for (const raw of s.history) {
      const item = HistoryItem.safeParse(raw);
      if (!item.success) {
        badItems++;
        if (badItems <= 3)
          ctx.warn(`${file.path}: history item skipped (${item.error.issues[0]?.message ?? 'invalid'})`);
        continue;
      }
      applyItem(acc, item.data);
    }
    if (badItems > 3) ctx.warn(`${file.path}: ${badItems} malformed history items skipped in all`);
    flushStates(acc);
    if (acc.steps.length === 0) return [];
    const firstUser = acc.steps.find((step) => step.kind === 'user');
    return [
      {
        id: `continue:${s.sessionId}`,
        agent: 'continue',
        cwd: workspacePath(s.workspaceDirectory),
        title:
          s.title && s.title !== 'New Session'
            ? s.title
            : firstUser?.kind === 'user'
              ? titleLine(firstUser.text)
              : s.title,
        startedAt: await createdAt(file.path, s.sessionId),
        // No per-message times: the file's last write is the session's last activity.
        endedAt: Number.isFinite(file.mtimeMs) && file.mtimeMs > 0 ? new Date(file.mtimeMs).toISOString() : undefined,
        source: { path: file.path, bytes: file.bytes },
        steps: acc.steps,
        unknown: acc.unknown,
        warnings: [],
      },
    ];
  },
};

function push(acc: Acc, step: StepInput): void {
  pushStep(acc.steps, step);
}

function applyItem(acc: Acc, item: z.infer<typeof HistoryItem>): void {
  const { message } = item;
  switch (message.role) {
    case 'user': {
      flushStates(acc);
      const text = contentText(message.content).trim();
      if (text) push(acc, { kind: 'user', text });
      return;
    }
    case 'assistant': {
      flushStates(acc);
      const text = contentText(message.content).trim();
      if (text) push(acc, { kind: 'assistant', text, model: acc.model });
      for (const raw of item.toolCallStates ?? []) {
        const state = ToolCallState.safeParse(raw);
        if (state.success && state.data.toolCallId) acc.states.set(state.data.toolCallId, state.data);
      }
      for (const raw of message.toolCalls ?? []) {
        const call = ToolCall.safeParse(raw);
        if (!call.success) {
          countUnknown(acc.unknown, 'toolCall:invalid');
          continue;
        }
        const args = call.data.function?.arguments;
        const input = typeof args === 'string' ? args : jsonText(args ?? {});
        const callId = call.data.id ?? `continue-call-${++acc.synthetic}`;
        push(acc, {
          kind: 'tool_call',
          callId,
          tool: call.data.function?.name ?? 'unknown',
          command: commandFromArguments(input),
          input: clipMiddle(input, acc.ctx.maxOutputChars).text,
        });
        if (!acc.states.has(callId)) acc.states.set(callId, { toolCallId: callId });
      }
      return;
    }
    case 'tool': {
      const callId = message.toolCallId ?? 'unknown';
      pushResult(acc, callId, contentText(message.content), acc.states.get(callId)?.status);
      return;
    }
    default:
      if (!QUIET_ROLES.has(message.role)) countUnknown(acc.unknown, `role:${message.role}`);
  }
}

/** Calls answered only in toolCallStates (no `tool` message) get their result from the state's output. */
function flushStates(acc: Acc): void {
  for (const [callId, state] of acc.states) {
    if (acc.answered.has(callId)) continue;
    const output = (state.output ?? [])
      .map((o) => (isRecord(o) && typeof o.content === 'string' ? o.content : ''))
      .filter(Boolean)
      .join('\n');
    if (output || state.status === 'errored' || state.status === 'canceled')
      pushResult(acc, callId, output, state.status);
  }
  acc.states.clear();
  acc.answered.clear();
}

function pushResult(acc: Acc, callId: string, output: string, status: string | undefined): void {
  acc.answered.add(callId);
  const exitCode = exitCodeAtEnd(output);
  push(acc, {
    kind: 'tool_result',
    callId,
    ...storedOutput(output, acc.ctx.maxOutputChars),
    isError: status === 'errored' || status === 'canceled' || (exitCode !== undefined && exitCode !== 0),
    exitCode,
    interrupted: status === 'canceled' ? true : undefined,
  });
}

/** MessageContent: a string or parts `[{type:"text", text} | {type:"imageUrl"}]`. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isRecord(p) && p.type === 'text' && typeof p.text === 'string' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
}

function workspacePath(directory: string | undefined): string | undefined {
  if (!directory) return undefined;
  if (!directory.startsWith('file:')) return directory;
  try {
    return fileURLToPath(directory);
  } catch {
    return undefined;
  }
}

/** The index's `dateCreated` (ms since epoch, as a string) for this session. */
async function createdAt(path: string, sessionId: string): Promise<string | undefined> {
  const index = join(dirname(path), 'sessions.json');
  try {
    const info = await stat(index);
    if (info.size > 16 * 1024 * 1024) return undefined;
    const json: unknown = JSON.parse(await readFile(index, 'utf8'));
    if (!Array.isArray(json)) return undefined;
    const entry = json.find((e) => isRecord(e) && e.sessionId === sessionId);
    const raw = isRecord(entry) ? entry.dateCreated : undefined;
    const ms =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && /^\d+$/.test(raw)
          ? Number(raw)
          : typeof raw === 'string'
            ? Date.parse(raw)
            : NaN;
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  } catch {
    return undefined;
  }
}
