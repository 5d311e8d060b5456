import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { readLines } from '../lines';
import type { Step, StepInput, TraceDraft } from '../model';
import { clipMiddle, headOf, titleLine } from '../../util/text';
import { commandFromArguments } from './codex';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { readJsonDocument } from './jsonDocument';
import { lineWarnings } from './lineWarnings';
import { countUnknown, exitCodeAtEnd, isRecord, msToIso, storedOutput, uriToPath, validTime } from './common';
import { findHeadRecord, segments } from './sniffHead';

// Three GitHub Copilot formats (research §4):
// - "copilot-agent" event logs: Copilot CLI `~/.copilot/session-state/<id>/events.jsonl` (and the older
//   `<id>.jsonl`), VS Code Copilot Chat's `transcripts/<id>.jsonl`;
// - VS Code `chatSessions/<id>.json`: ISerializableChatData (v1–v3), rewritten whole;
// - VS Code ≥1.109 `chatSessions/<id>.jsonl`: an ObjectMutationLog replayed into the same object.

const Event = z.looseObject({ type: z.string(), data: z.unknown().optional(), timestamp: z.string().optional() });
const SessionStart = z.looseObject({
  sessionId: z.string().optional(),
  copilotVersion: z.string().optional(),
  startTime: z.string().optional(),
  context: z.looseObject({ cwd: z.string().optional() }).optional(),
});
const ToolRequest = z.looseObject({
  toolCallId: z.string().optional(),
  name: z.string().optional(),
  arguments: z.unknown().optional(),
});
const AssistantMessage = z.looseObject({
  content: z.string().optional(),
  toolRequests: z.array(z.unknown()).optional(),
  model: z.string().optional(),
});
const ToolStart = z.looseObject({
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  arguments: z.unknown().optional(),
});
const ToolComplete = z.looseObject({
  toolCallId: z.string().optional(),
  success: z.boolean().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});

const ChatData = z.looseObject({
  version: z.number().optional(),
  sessionId: z.string().optional(),
  creationDate: z.number().optional(),
  lastMessageDate: z.number().optional(),
  customTitle: z.string().optional(),
  computedTitle: z.string().optional(),
  requests: z.array(z.unknown()),
});
type ChatData = z.infer<typeof ChatData>;
const ChatRequest = z.looseObject({
  requestId: z.string().optional(),
  timestamp: z.number().optional(),
  message: z.union([z.string(), z.looseObject({ text: z.string().optional() })]).optional(),
  response: z.array(z.unknown()).nullish(),
  result: z
    .looseObject({
      errorDetails: z.looseObject({ message: z.string().optional() }).nullish(),
      metadata: z
        .looseObject({
          toolCallRounds: z.array(z.unknown()).optional(),
          toolCallResults: z.record(z.string(), z.unknown()).optional(),
          resolvedModel: z.string().optional(),
        })
        .nullish(),
    })
    .nullish(),
  modelId: z.string().optional(),
  modelState: z.looseObject({ value: z.number().optional() }).nullish(),
  isCanceled: z.boolean().optional(),
});
const ToolCallRound = z.looseObject({
  response: z.string().optional(),
  toolCalls: z
    .array(z.looseObject({ id: z.string().optional(), name: z.string().optional(), arguments: z.unknown().optional() }))
    .optional(),
});
const ToolInvocation = z.looseObject({
  toolId: z.string().optional(),
  toolCallId: z.string().optional(),
  invocationMessage: z.unknown().optional(),
  pastTenseMessage: z.unknown().optional(),
  isConfirmed: z.unknown().optional(),
  isComplete: z.boolean().optional(),
  resultDetails: z.unknown().optional(),
});

/** ResponseModelState in VS Code's chatService. */
const MODEL_STATE_CANCELLED = 2;
const MODEL_STATE_FAILED = 3;

const IGNORED_EVENTS = new Set([
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.reasoning',
  'assistant.reasoning_delta',
  'assistant.message_delta',
  'assistant.usage',
  'session.info',
  'session.truncation',
  'session.usage_checkpoint',
  'session.shutdown',
  'session.idle',
  'session.resume',
  'session.compaction_start',
  'session.compaction_complete',
  'hook.start',
  'hook.end',
  'system.message',
  'system.notification',
  'subagent.started',
  'subagent.completed',
  'subagent.failed',
  'subagent.selected',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'tool.user_requested',
  'pending_messages.modified',
]);
/** Response part kinds that hold no text or tool call of their own (VS Code chatSessionOperationLog list). */
const QUIET_PARTS = new Set([
  'inlineReference',
  'codeblockUri',
  'textEditGroup',
  'notebookEditGroup',
  'undoStop',
  'prepareToolInvocation',
  'confirmation',
  'elicitation',
  'elicitationSerialized',
  'thinking',
  'progressMessage',
  'progressTaskSerialized',
  'warning',
  'mcpServersStarting',
  'autoModeResolution',
  'command',
  'extensions',
  'hook',
  'markdownVuln',
  'multiDiffData',
  'pullRequest',
  'questionCarousel',
  'treeData',
  'workspaceEdit',
  'clearToPreviousToolInvocation',
  'disabledClaudeHooks',
  'codeCitation',
  'references',
  'toolInvocation',
]);
const TOOL_ERROR = /^\s*(?:error\b|ERROR while calling tool)/i;

interface Acc {
  file: SessionFile;
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  syntheticCalls: number;
  callIds: Set<string>;
  id?: string;
  version?: string;
  cwd?: string;
  title?: string;
  firstPrompt?: string;
  startedAt?: string;
  endedAt?: string;
  model?: string;
}

/** Event types of Copilot's agent log that no other agent writes. */
const EVENT_TYPES =
  /^(?:session\.(?:start|resume)|user\.message|assistant\.(?:turn_start|turn_end|message)|tool\.execution_(?:start|complete))$/;

export const copilotReader: SourceReader = {
  agent: 'copilot',

  accepts(path) {
    const name = basename(path);
    return name.endsWith('.jsonl') || name.endsWith('.json');
  },

  sniff(_path, head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    if (/^\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{/.test(text))
      return /"(?:requests|responderUsername|sessionId|creationDate)"\s*:/.test(text);
    const event = (r: Record<string, unknown>) =>
      isRecord(r.data) &&
      typeof r.type === 'string' &&
      (r.data.producer === 'copilot-agent' || EVENT_TYPES.test(r.type));
    if (head.includes('"data"') && findHeadRecord(head, event)) return 'specific';
    const nl = text.indexOf('\n');
    const first = nl === -1 ? text : text.slice(0, nl);
    if (/^\{/.test(first) && /"data"\s*:\s*\{/.test(first)) {
      if (/"producer"\s*:\s*"copilot-agent"/.test(first)) return true;
      if (
        /"type"\s*:\s*"(?:session\.start|session\.resume|user\.message|assistant\.turn_start|assistant\.message)"/.test(
          first,
        )
      )
        return true;
    }
    return (
      /^\{/.test(text) &&
      /"requests"\s*:\s*\[/.test(text) &&
      /"sessionId"\s*:/.test(text) &&
      /"(?:responderUsername|requesterUsername|initialLocation|creationDate)"\s*:/.test(text)
    );
  },

  claims(path) {
    // ~/.copilot/session-state/<id>/events.jsonl; VS Code's workspaceStorage/<hash>/chatSessions/<id>.json[l]
    const up = segments(path);
    if (up[0] === 'events.jsonl') return up[2] === 'session-state';
    return (up[1] === 'chatSessions' || up[1] === 'emptyWindowChatSessions') && /\.jsonl?$/.test(up[0]);
  },

  async read(file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
    const acc: Acc = { file, ctx, steps: [], unknown: {}, syntheticCalls: 0, callIds: new Set() };
    if (file.path.endsWith('.json')) {
      const data = await readWholeFile(acc);
      if (data === 'skipped') return [];
      if (data === 'not-json') await readJsonl(acc);
      else await applyChatData(acc, data);
    } else {
      await readJsonl(acc);
    }
    return finish(acc);
  },
};

async function readWholeFile(acc: Acc): Promise<ChatData | 'skipped' | 'not-json'> {
  const data = await readJsonDocument(acc.file, acc.ctx, ChatData, {
    name: 'single-JSON Copilot chat session',
    expected: '{sessionId, requests}',
    notJson: 'quiet',
  });
  return data ?? 'skipped';
}

/** A `.jsonl` is either an event log or a mutation log; the first good line tells which. */
async function readJsonl(acc: Acc): Promise<void> {
  const { file, ctx } = acc;
  const warnings = lineWarnings(file, ctx, 'Copilot');
  const bad = warnings.bad;
  let mode: 'events' | 'mutations' | undefined;
  let state: unknown;
  const result = await readLines(
    file.path,
    ({ text, lineNo }) => {
      const json = warnings.record(text, lineNo);
      if (!json) return;
      mode ??= typeof json.kind === 'number' && 'v' in json ? 'mutations' : 'events';
      if (mode === 'mutations') {
        const applied = applyMutation(state, json);
        if (applied.ok) state = applied.state;
        else bad(`${file.path}:${lineNo}: ${applied.reason}; entry skipped`);
      } else {
        applyEvent(acc, json);
      }
    },
    { maxLineBytes: ctx.maxLineBytes },
  );
  warnings.done(result.skippedLongLines);
  if (mode !== 'mutations') return;
  const data = ChatData.safeParse(state);
  if (!data.success) {
    ctx.warn(`${file.path}: the replayed chat session has no requests array; skipped`);
    return;
  }
  await applyChatData(acc, data.data);
}

type Mutation = { ok: true; state: unknown } | { ok: false; reason: string };

/**
 * VS Code's ObjectMutationLog: kind 0 = whole value, 1 = set at path k, 2 = push v onto the array at k (after cutting
 * it to length i when i is given), 3 = delete at k. Mirrors objectMutationLog.ts `read`.
 */
export function applyMutation(state: unknown, entry: Record<string, unknown>): Mutation {
  const kind = entry.kind;
  if (kind === 0) return { ok: true, state: entry.v };
  if (state === undefined) return { ok: false, reason: 'mutation before the initial value' };
  const path = Array.isArray(entry.k) ? entry.k : undefined;
  if (!path || !path.every((p) => typeof p === 'string' || typeof p === 'number'))
    return { ok: false, reason: 'mutation without a path' };
  if (path.length === 0)
    return kind === 1 ? { ok: true, state: entry.v } : { ok: false, reason: 'mutation at the root' };
  let parent: unknown = state;
  for (const key of path.slice(0, -1)) {
    parent = isContainer(parent) ? (parent as Record<string | number, unknown>)[key] : undefined;
  }
  if (!isContainer(parent)) return { ok: false, reason: `no object at ${path.slice(0, -1).join('.')}` };
  const target = parent as Record<string | number, unknown>;
  const last = path[path.length - 1];
  switch (kind) {
    case 1:
      target[last] = entry.v;
      return { ok: true, state };
    case 2: {
      const arr = Array.isArray(target[last]) ? (target[last] as unknown[]) : [];
      if (typeof entry.i === 'number') arr.length = Math.min(arr.length, entry.i);
      if (Array.isArray(entry.v)) arr.push(...(entry.v as unknown[]));
      target[last] = arr;
      return { ok: true, state };
    }
    case 3:
      if (Array.isArray(target)) target[last as number] = undefined;
      else delete target[last];
      return { ok: true, state };
    default:
      return { ok: false, reason: `unknown mutation kind ${String(kind)}` };
  }
}

function push(acc: Acc, step: StepInput, time: string | undefined): void {
  acc.steps.push({ ...step, index: acc.steps.length, time } as Step);
  if (step.kind === 'tool_call') acc.callIds.add(step.callId);
  if (time) {
    acc.startedAt ??= time;
    acc.endedAt = time;
  }
}

function applyEvent(acc: Acc, json: Record<string, unknown>): void {
  const event = Event.safeParse(json);
  if (!event.success) {
    countUnknown(acc.unknown, 'event:untyped');
    return;
  }
  const { type, data } = event.data;
  const time = validTime(event.data.timestamp) ? event.data.timestamp : undefined;
  switch (type) {
    case 'session.start': {
      const start = SessionStart.safeParse(data);
      if (!start.success) return;
      acc.id ??= start.data.sessionId;
      acc.version ??= start.data.copilotVersion;
      acc.cwd ??= start.data.context?.cwd;
      if (validTime(start.data.startTime)) acc.startedAt ??= start.data.startTime;
      return;
    }
    case 'session.model_change':
      if (isRecord(data) && typeof data.newModel === 'string') acc.model = data.newModel;
      return;
    case 'user.message': {
      const content = isRecord(data) && typeof data.content === 'string' ? data.content.trim() : '';
      if (!content) return;
      acc.firstPrompt ??= titleLine(content);
      push(acc, { kind: 'user', text: content }, time);
      return;
    }
    case 'assistant.message': {
      const message = AssistantMessage.safeParse(data);
      if (!message.success) {
        countUnknown(acc.unknown, 'assistant.message:invalid');
        return;
      }
      if (message.data.model) acc.model = message.data.model;
      const text = message.data.content?.trim();
      if (text) push(acc, { kind: 'assistant', text, model: acc.model }, time);
      for (const raw of message.data.toolRequests ?? []) {
        const request = ToolRequest.safeParse(raw);
        if (!request.success) continue;
        pushCall(acc, request.data.toolCallId, request.data.name, request.data.arguments, time);
      }
      return;
    }
    case 'tool.execution_start': {
      // Usually repeats a toolRequest already seen; kept only for calls that had none.
      const start = ToolStart.safeParse(data);
      if (start.success && start.data.toolCallId && !acc.callIds.has(start.data.toolCallId))
        pushCall(acc, start.data.toolCallId, start.data.toolName, start.data.arguments, time);
      return;
    }
    case 'tool.execution_complete': {
      const done = ToolComplete.safeParse(data);
      if (!done.success) {
        countUnknown(acc.unknown, 'tool.execution_complete:invalid');
        return;
      }
      const { text, failed } = eventResultText(done.data.result, done.data.error);
      const exit =
        /<exited with exit code (-?\d+)>/.exec(text) ?? /\bexit(?:ed with)? code:? (-?\d+)\b/i.exec(text.slice(-300));
      const exitCode = exit ? Number(exit[1]) : undefined;
      push(
        acc,
        {
          kind: 'tool_result',
          callId: done.data.toolCallId ?? 'unknown',
          ...storedOutput(text, acc.ctx.maxOutputChars),
          isError: done.data.success === false || failed || (exitCode !== undefined && exitCode !== 0),
          exitCode,
        },
        time,
      );
      return;
    }
    case 'session.error': {
      const message =
        isRecord(data) && typeof data.message === 'string' ? data.message : headOf(jsonText(data ?? {}), 500);
      push(acc, { kind: 'error', text: message }, time);
      return;
    }
    case 'abort': {
      const reason = isRecord(data) && typeof data.reason === 'string' ? data.reason : 'aborted';
      push(acc, { kind: 'error', text: `turn aborted: ${reason}` }, time);
      return;
    }
    default:
      if (!IGNORED_EVENTS.has(type)) countUnknown(acc.unknown, type);
  }
}

function pushCall(
  acc: Acc,
  callId: string | undefined,
  name: string | undefined,
  args: unknown,
  time: string | undefined,
): void {
  const input = typeof args === 'string' ? args : jsonText(args ?? {});
  push(
    acc,
    {
      kind: 'tool_call',
      callId: callId ?? `copilot-call-${++acc.syntheticCalls}`,
      tool: name ?? 'unknown',
      command: commandFromArguments(input),
      input: clipMiddle(input, acc.ctx.maxOutputChars).text,
    },
    time,
  );
}

function eventResultText(result: unknown, error: unknown): { text: string; failed: boolean } {
  if (error !== undefined && error !== null) {
    const message =
      typeof error === 'string'
        ? error
        : isRecord(error) && typeof error.message === 'string'
          ? error.message
          : jsonText(error);
    return { text: message, failed: true };
  }
  if (typeof result === 'string') return { text: result, failed: false };
  if (isRecord(result)) {
    if (typeof result.content === 'string') return { text: result.content, failed: false };
    if (typeof result.detailedContent === 'string') return { text: result.detailedContent, failed: false };
    return { text: jsonText(result), failed: false };
  }
  return { text: '', failed: false };
}

async function applyChatData(acc: Acc, data: ChatData): Promise<void> {
  acc.id ??= data.sessionId;
  acc.title = data.customTitle ?? data.computedTitle;
  if (data.creationDate !== undefined) acc.startedAt = msToIso(data.creationDate);
  acc.cwd ??= await workspaceFolder(acc.file.path);
  for (const raw of data.requests) {
    const request = ChatRequest.safeParse(raw);
    if (!request.success) {
      countUnknown(acc.unknown, 'request:invalid');
      continue;
    }
    applyRequest(acc, request.data);
  }
  if (data.lastMessageDate !== undefined) acc.endedAt = msToIso(data.lastMessageDate);
}

function applyRequest(acc: Acc, request: z.infer<typeof ChatRequest>): void {
  const time = request.timestamp !== undefined ? msToIso(request.timestamp) : undefined;
  const text = (typeof request.message === 'string' ? request.message : (request.message?.text ?? '')).trim();
  if (text) {
    acc.firstPrompt ??= titleLine(text);
    push(acc, { kind: 'user', text }, time);
  }
  const metadata = request.result?.metadata ?? undefined;
  const model = metadata?.resolvedModel ?? request.modelId?.replace(/^copilot\//, '');
  const invocations = new Map<string, z.infer<typeof ToolInvocation>>();
  const parts = request.response ?? [];
  for (const part of parts) {
    const kind = isRecord(part) && typeof part.kind === 'string' ? part.kind : undefined;
    if (kind === 'toolInvocationSerialized') {
      const invocation = ToolInvocation.safeParse(part);
      if (invocation.success && invocation.data.toolCallId)
        invocations.set(stripSuffix(invocation.data.toolCallId), invocation.data);
    } else if (kind && kind !== 'markdownContent' && !QUIET_PARTS.has(kind)) {
      countUnknown(acc.unknown, `part:${kind}`);
    }
  }

  const rounds = metadata?.toolCallRounds ?? [];
  if (rounds.length > 0) {
    // The rounds hold the model's text and calls in order, with arguments; results sit in toolCallResults.
    const results = metadata?.toolCallResults ?? {};
    for (const raw of rounds) {
      const round = ToolCallRound.safeParse(raw);
      if (!round.success) {
        countUnknown(acc.unknown, 'toolCallRound:invalid');
        continue;
      }
      const said = round.data.response?.trim();
      if (said) push(acc, { kind: 'assistant', text: said, model }, time);
      for (const call of round.data.toolCalls ?? []) {
        const callId = call.id ?? `copilot-call-${++acc.syntheticCalls}`;
        pushCall(acc, callId, call.name, call.arguments, time);
        const invocation = invocations.get(stripSuffix(callId));
        const result = findResult(results, callId);
        if (result === undefined && !invocation?.isComplete) continue;
        const output = result !== undefined ? toolResultText(result) : messageText(invocation?.pastTenseMessage);
        pushChatResult(acc, callId, output, invocation?.isConfirmed === false, time);
      }
    }
  } else {
    // Older or tool-less sessions: the response parts are all there is.
    let buffer: string[] = [];
    const flush = () => {
      const said = buffer.join('').trim();
      if (said) push(acc, { kind: 'assistant', text: said, model }, time);
      buffer = [];
    };
    for (const part of parts) {
      if (!isRecord(part)) continue;
      if (part.kind === undefined && typeof part.value === 'string') buffer.push(part.value);
      else if (part.kind === 'markdownContent' && isRecord(part.content) && typeof part.content.value === 'string')
        buffer.push(part.content.value);
      else if (part.kind === 'toolInvocationSerialized') {
        const invocation = ToolInvocation.safeParse(part);
        if (!invocation.success) continue;
        flush();
        const callId = invocation.data.toolCallId ?? `copilot-call-${++acc.syntheticCalls}`;
        push(
          acc,
          {
            kind: 'tool_call',
            callId,
            tool: invocation.data.toolId ?? 'unknown',
            input: clipMiddle(messageText(invocation.data.invocationMessage), acc.ctx.maxOutputChars).text,
          },
          time,
        );
        if (invocation.data.isComplete || invocation.data.isConfirmed === false) {
          pushChatResult(
            acc,
            callId,
            messageText(invocation.data.pastTenseMessage),
            invocation.data.isConfirmed === false,
            time,
          );
        }
      }
    }
    flush();
  }

  const errorMessage = request.result?.errorDetails?.message;
  const state = request.modelState?.value;
  if (state === MODEL_STATE_CANCELLED || request.isCanceled === true)
    push(acc, { kind: 'error', text: 'turn aborted: cancelled' }, time);
  else if (errorMessage) push(acc, { kind: 'error', text: errorMessage }, time);
  else if (state === MODEL_STATE_FAILED) push(acc, { kind: 'error', text: 'request failed' }, time);
}

function pushChatResult(acc: Acc, callId: string, output: string, denied: boolean, time: string | undefined): void {
  const exitCode = exitCodeAtEnd(output);
  push(
    acc,
    {
      kind: 'tool_result',
      callId,
      ...storedOutput(output, acc.ctx.maxOutputChars),
      isError: denied || TOOL_ERROR.test(output) || (exitCode !== undefined && exitCode !== 0),
      exitCode,
    },
    time,
  );
}

/** toolCallResults keys and call ids may differ by a `__vscode-<n>` suffix. */
function findResult(results: Record<string, unknown>, callId: string): unknown {
  if (callId in results) return results[callId];
  const bare = stripSuffix(callId);
  for (const [key, value] of Object.entries(results)) if (stripSuffix(key) === bare) return value;
  return undefined;
}

function stripSuffix(id: string): string {
  return id.replace(/__vscode-\d+$/, '');
}

/** A serialized LanguageModelToolResult: `{content: [{value: string | prompt-tsx tree}]}`. */
function toolResultText(result: unknown): string {
  if (typeof result === 'string') return result;
  const content = isRecord(result) && Array.isArray(result.content) ? result.content : [result];
  return content
    .map((item) => {
      if (typeof item === 'string') return item;
      if (!isRecord(item)) return '';
      if (typeof item.value === 'string') return item.value;
      if (typeof item.text === 'string') return item.text;
      return collectText(item.value ?? item).join('');
    })
    .filter(Boolean)
    .join('\n');
}

/** Text leaves of a prompt-tsx JSON tree. */
function collectText(node: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 50) return out;
  if (Array.isArray(node)) for (const child of node) collectText(child, out, depth + 1);
  else if (isRecord(node)) {
    if (typeof node.text === 'string') out.push(node.text);
    for (const [key, value] of Object.entries(node))
      if (key !== 'text' && typeof value === 'object') collectText(value, out, depth + 1);
  }
  return out;
}

function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (isRecord(message) && typeof message.value === 'string') return message.value;
  return '';
}

/** `workspace.json` next to `chatSessions/` names the folder (or .code-workspace file) the window had open. */
async function workspaceFolder(path: string): Promise<string | undefined> {
  const folder = dirname(path);
  if (!/chatsessions$/i.test(basename(folder))) return undefined;
  try {
    const file = join(dirname(folder), 'workspace.json');
    const info = await stat(file);
    if (info.size > 1024 * 1024) return undefined;
    const json: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isRecord(json)) return undefined;
    if (typeof json.folder === 'string') return uriToPath(json.folder);
    if (typeof json.workspace === 'string') {
      const workspaceFile = uriToPath(json.workspace);
      return workspaceFile ? dirname(workspaceFile) : undefined;
    }
  } catch {
    // no workspace.json: an empty window or a copied file
  }
  return undefined;
}

function finish(acc: Acc): TraceDraft[] {
  if (acc.steps.length === 0) return [];
  const name = basename(acc.file.path).replace(/\.jsonl?$/, '');
  const fallback = name === 'events' ? basename(dirname(acc.file.path)) : name;
  return [
    {
      id: `copilot:${acc.id ?? fallback}`,
      agent: 'copilot',
      agentVersion: acc.version,
      cwd: acc.cwd,
      title: acc.title ?? acc.firstPrompt,
      startedAt: acc.startedAt,
      endedAt: acc.endedAt,
      source: { path: acc.file.path, bytes: acc.file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    },
  ];
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
