import { z } from 'zod';
import { fastParser } from '../../util/fastParse';
import { clipMiddle, headOf, titleLine } from '../../util/text';
import type { StepInput } from '../model';
import { countUnknown, isRecord, storedOutput, validTime } from './common';
import { jsonText } from './jsonText';
import { noteTime } from './sessionDraft';
import { commandFromArguments, commandFromArgv, workdirFromArguments } from './toolCommand';
import type { ReadContext, SessionFile } from './types';

// Codex rollout records → steps: the envelopes, response items, events and metadata of every era, into the
// accumulator the reader finishes into traces.

const Envelope = z.looseObject({ timestamp: z.unknown().optional(), type: z.string(), payload: z.unknown() });
const SessionMeta = z.looseObject({
  id: z.string().optional(),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  cli_version: z.string().optional(),
  version: z.string().optional(),
  source: z.unknown().optional(),
  parent_thread_id: z.string().nullish(),
});
const TurnContext = z.looseObject({ cwd: z.string().optional(), model: z.string().optional() });
const ContentItem = z.looseObject({ type: z.string().optional(), text: z.string().optional() });
const MessageItem = z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(ContentItem)]).nullish() });
const CallItem = z.looseObject({
  call_id: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  namespace: z.string().nullish(),
  arguments: z.unknown().optional(),
  input: z.unknown().optional(),
});
const LocalShellCall = z.looseObject({
  call_id: z.string().nullish(),
  id: z.string().nullish(),
  action: z
    .looseObject({ command: z.array(z.string()).optional(), working_directory: z.string().nullish() })
    .optional(),
});
const CallOutput = z.looseObject({ call_id: z.string().nullish(), output: z.unknown().optional() });
/** The classic shell tool's output, serialized as a JSON string inside `output`. */
const ShellOutput = z.looseObject({
  output: z.string(),
  metadata: z.looseObject({ exit_code: z.number().optional() }).optional(),
});
// every line and item goes through these: checked without zod's per-parse copy (see fastParse)
const parseEnvelope = fastParser(Envelope);
const parseTurnContext = fastParser(TurnContext);
const parseMessageItem = fastParser(MessageItem);
const parseCallItem = fastParser(CallItem);
const parseLocalShellCall = fastParser(LocalShellCall);
const parseCallOutput = fastParser(CallOutput);
const parseShellOutput = fastParser(ShellOutput);

/** Known types that carry nothing a lesson can use. */
const IGNORED_EVENTS = new Set([
  'token_count',
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'agent_reasoning_section_break',
]);
const IGNORED_ITEMS = new Set(['reasoning']);

/** Context Codex injects as user messages, by its own markers (codex-rs CONTEXTUAL_USER_FRAGMENTS); not what the human said. */
const INJECTED_PREFIXES = [
  '# AGENTS.md instructions',
  '<environment_context>',
  '<user_instructions>',
  '<INSTRUCTIONS>',
  '<skill>',
  '<user_shell_command>',
  '<turn_aborted>',
  '<subagent_notification>',
  '<subagents>',
];

type StepDraft = StepInput & { time?: string; sidechain?: boolean };
type ResultDraft = Extract<StepInput, { kind: 'tool_result' }> & { time?: string; sidechain?: boolean };

interface Entry {
  step: StepDraft;
  /** From event_msg user_message/agent_message: used only when the file has no response_item messages. */
  fromEvent?: boolean;
}

export interface Accumulator {
  file: SessionFile;
  ctx: ReadContext;
  id?: string;
  parentId?: string;
  sidechain: boolean;
  metaSeen: boolean;
  cwd?: string;
  version?: string;
  model?: string;
  threadName?: string;
  startedAt?: string;
  endedAt?: string;
  entries: Entry[];
  sawResponseMessage: boolean;
  /** Index in `entries` of the latest user message, to scope a turn abort to its turn. */
  lastUserEntry: number;
  results: Map<string, ResultDraft>;
  /** Exit codes / failures reported by events before the call's output item arrived. */
  pendingExit: Map<string, number>;
  pendingFailed: Set<string>;
  syntheticCalls: number;
  unknown: Record<string, number>;
  /** A line could not be read (damaged, cut, too long): an empty result is then a loss, not an empty session. */
  damaged?: boolean;
}

/** The record types of a rollout's `{timestamp, type, payload}` envelope. */

export function applyLine(acc: Accumulator, json: Record<string, unknown>): void {
  if ('payload' in json) {
    const envelope = parseEnvelope(json);
    if (!envelope.success) {
      countUnknown(acc.unknown, 'envelope:invalid');
      return;
    }
    applyEnvelope(acc, envelope.data);
  } else if (typeof json.record_type === 'string') {
    // Era 2 `{record_type:"state"}` lines: resume bookkeeping only.
  } else if (json.type === undefined && typeof json.id === 'string') {
    applyMeta(acc, json, undefined);
  } else if (typeof json.type === 'string') {
    applyResponseItem(acc, json, undefined);
  } else {
    countUnknown(acc.unknown, 'line:untyped');
  }
}

function applyEnvelope(acc: Accumulator, envelope: z.infer<typeof Envelope>): void {
  const time = validTime(envelope.timestamp) ? envelope.timestamp : undefined;
  noteTime(acc, time);
  const payload = isRecord(envelope.payload) ? envelope.payload : undefined;
  switch (envelope.type) {
    case 'session_meta':
      if (payload) applyMeta(acc, payload, time);
      return;
    case 'turn_context': {
      const turn = parseTurnContext(payload);
      if (!turn.success) return;
      // The working directory may change mid-session; the session belongs to where it started.
      acc.cwd ??= turn.data.cwd;
      if (turn.data.model) acc.model = turn.data.model;
      return;
    }
    case 'response_item':
      if (payload && typeof payload.type === 'string') applyResponseItem(acc, payload, time);
      else countUnknown(acc.unknown, 'response_item:invalid');
      return;
    case 'event_msg':
      if (payload && typeof payload.type === 'string') applyEvent(acc, payload, payload.type, time);
      else countUnknown(acc.unknown, 'event_msg:invalid');
      return;
    default:
      countUnknown(acc.unknown, envelope.type);
  }
}

function applyMeta(acc: Accumulator, payload: unknown, time: string | undefined): void {
  // Forked rollouts replay their parent's history, meta line included: the first meta is this thread's.
  if (acc.metaSeen) return;
  const meta = SessionMeta.safeParse(payload);
  if (!meta.success) {
    countUnknown(acc.unknown, 'session_meta:invalid');
    return;
  }
  acc.metaSeen = true;
  const m = meta.data;
  acc.id = m.id;
  acc.version = m.cli_version ?? m.version;
  if (m.cwd) acc.cwd ??= m.cwd;
  const started = validTime(m.timestamp) ? m.timestamp : time;
  if (started) acc.startedAt = started;
  const subagent = isRecord(m.source) && isRecord(m.source.subagent) ? m.source.subagent : undefined;
  if (subagent) {
    acc.sidechain = true;
    const spawn = isRecord(subagent.thread_spawn) ? subagent.thread_spawn : undefined;
    const parent =
      typeof spawn?.parent_thread_id === 'string' ? spawn.parent_thread_id : (m.parent_thread_id ?? undefined);
    if (parent) acc.parentId = `codex:${parent}`;
  }
}

/** Steps are numbered when the rollout is finished (event copies may yet be dropped); the literal is completed in place. */
function push(acc: Accumulator, step: StepInput, time: string | undefined, fromEvent?: boolean): StepDraft {
  const draft = step as StepDraft;
  draft.time = time;
  if (acc.sidechain) draft.sidechain = true;
  acc.entries.push({ step: draft, fromEvent });
  if (step.kind === 'user') acc.lastUserEntry = acc.entries.length - 1;
  return draft;
}

export function applyResponseItem(acc: Accumulator, item: Record<string, unknown>, time: string | undefined): void {
  const type = item.type as string;
  switch (type) {
    case 'message':
      applyMessage(acc, item, time);
      return;
    case 'function_call':
    case 'custom_tool_call': {
      const call = parseCallItem(item);
      if (!call.success) {
        countUnknown(acc.unknown, `response_item:${type}:invalid`);
        return;
      }
      const raw = type === 'function_call' ? call.data.arguments : call.data.input;
      const input = typeof raw === 'string' ? raw : raw == null ? '' : jsonText(raw);
      const name = call.data.name ?? 'unknown';
      push(
        acc,
        {
          kind: 'tool_call',
          callId: call.data.call_id ?? call.data.id ?? `codex-call-${++acc.syntheticCalls}`,
          tool: call.data.namespace ? `${call.data.namespace}.${name}` : name,
          command: commandFromArguments(input),
          workdir: workdirFromArguments(input),
          input: clipMiddle(input, acc.ctx.maxOutputChars).text,
        },
        time,
      );
      return;
    }
    case 'local_shell_call': {
      const call = parseLocalShellCall(item);
      if (!call.success) {
        countUnknown(acc.unknown, `response_item:${type}:invalid`);
        return;
      }
      const argv = call.data.action?.command;
      push(
        acc,
        {
          kind: 'tool_call',
          callId: call.data.call_id ?? call.data.id ?? `codex-call-${++acc.syntheticCalls}`,
          tool: 'local_shell',
          command: argv ? commandFromArgv(argv) : undefined,
          workdir: call.data.action?.working_directory ?? undefined,
          input: clipMiddle(jsonText(call.data.action ?? {}), acc.ctx.maxOutputChars).text,
        },
        time,
      );
      return;
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const out = parseCallOutput(item);
      if (!out.success) {
        countUnknown(acc.unknown, `response_item:${type}:invalid`);
        return;
      }
      applyCallOutput(acc, out.data.call_id ?? 'unknown', out.data.output, time);
      return;
    }
    default:
      if (!IGNORED_ITEMS.has(type)) countUnknown(acc.unknown, `response_item:${type}`);
  }
}

function applyMessage(acc: Accumulator, item: Record<string, unknown>, time: string | undefined): void {
  const message = parseMessageItem(item);
  if (!message.success) {
    countUnknown(acc.unknown, 'response_item:message:invalid');
    return;
  }
  const { role, content } = message.data;
  if (role !== 'user' && role !== 'assistant') return; // developer / system prompts
  acc.sawResponseMessage = true;
  const texts =
    typeof content === 'string'
      ? [content]
      : (content ?? []).map((c) => c.text).filter((t): t is string => typeof t === 'string');
  if (role === 'assistant') {
    const text = texts.join('\n').trim();
    if (text) push(acc, { kind: 'assistant', text, model: acc.model }, time);
    return;
  }
  const kept: string[] = [];
  for (const text of texts) {
    if (isInjected(text)) {
      // Early rollouts have no cwd field; the injected environment context still names it.
      const cwd = /<cwd>([^<]+)<\/cwd>/.exec(text);
      if (cwd) acc.cwd ??= cwd[1].trim();
    } else if (text.trim()) {
      kept.push(text);
    }
  }
  pushUser(acc, kept.join('\n').trim(), time, false);
}

function pushUser(acc: Accumulator, text: string, time: string | undefined, fromEvent: boolean): void {
  if (!text || isInjected(text)) return;
  push(acc, { kind: 'user', text }, time, fromEvent);
}

function isInjected(text: string): boolean {
  const head = text.trimStart();
  return INJECTED_PREFIXES.some((prefix) => head.startsWith(prefix));
}

function applyCallOutput(acc: Accumulator, callId: string, output: unknown, time: string | undefined): void {
  const parsed = parseOutput(output);
  const head = parsed.text.trimStart();
  let exitCode = parsed.exitCode ?? acc.pendingExit.get(callId);
  if (exitCode === undefined) {
    const stated = /^(?:Exit code: |Process exited with code )(-?\d+)/m.exec(parsed.text.slice(0, 300));
    if (stated) exitCode = Number(stated[1]);
  }
  const aborted = /^aborted\b/i.test(head);
  const isError =
    parsed.failed ||
    acc.pendingFailed.has(callId) ||
    (exitCode !== undefined && exitCode !== 0) ||
    aborted ||
    /^execution error\b/i.test(head);
  const result = push(
    acc,
    {
      kind: 'tool_result',
      callId,
      ...storedOutput(parsed.text, acc.ctx.maxOutputChars),
      isError,
      exitCode,
      interrupted: aborted ? true : undefined,
    },
    time,
  ) as ResultDraft;
  acc.results.set(callId, result);
  acc.pendingExit.delete(callId);
  acc.pendingFailed.delete(callId);
}

/** `output` is a plain string, a JSON string `{output, metadata:{exit_code}}`, content items, or one object. */
function parseOutput(output: unknown): { text: string; exitCode?: number; failed?: boolean } {
  if (typeof output === 'string') {
    if (output.trimStart().startsWith('{')) {
      try {
        const shell = parseShellOutput(JSON.parse(output));
        if (shell.success) {
          const code = shell.data.metadata?.exit_code;
          return { text: shell.data.output, exitCode: Number.isInteger(code) ? code : undefined };
        }
      } catch {
        // plain text that happens to start with a brace
      }
    }
    return { text: output };
  }
  if (Array.isArray(output)) return { text: contentText(output) };
  if (isRecord(output)) {
    if (typeof output.output === 'string') return parseOutput(jsonText(output));
    const failed = output.success === false ? true : undefined;
    if (typeof output.text === 'string') return { text: output.text, failed };
    if (typeof output.content === 'string') return { text: output.content, failed };
    if (Array.isArray(output.content)) return { text: contentText(output.content), failed };
    return { text: jsonText(output), failed };
  }
  return { text: '' };
}

function contentText(items: unknown[]): string {
  return items
    .map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : ''))
    .filter(Boolean)
    .join('\n');
}

function applyEvent(acc: Accumulator, event: Record<string, unknown>, type: string, time: string | undefined): void {
  const callId = typeof event.call_id === 'string' ? event.call_id : undefined;
  switch (type) {
    case 'user_message':
      if (typeof event.message === 'string') pushUser(acc, event.message.trim(), time, true);
      return;
    case 'agent_message':
      if (typeof event.message === 'string' && event.message.trim())
        push(acc, { kind: 'assistant', text: event.message.trim(), model: acc.model }, time, true);
      return;
    case 'exec_command_end':
      if (callId && typeof event.exit_code === 'number' && Number.isInteger(event.exit_code))
        setExitCode(acc, callId, event.exit_code);
      return;
    case 'patch_apply_end':
      if (callId && event.success === false) markFailed(acc, callId);
      return;
    case 'mcp_tool_call_end': {
      const result = isRecord(event.result) ? event.result : undefined;
      const ok = isRecord(result?.Ok) ? result.Ok : undefined;
      if (callId && result && ('Err' in result || ok?.isError === true)) markFailed(acc, callId);
      return;
    }
    case 'dynamic_tool_call_response':
      if (callId && event.success === false) markFailed(acc, callId);
      return;
    case 'turn_aborted': {
      push(
        acc,
        { kind: 'error', text: `turn aborted: ${typeof event.reason === 'string' ? event.reason : 'unknown reason'}` },
        time,
      );
      for (let i = acc.entries.length - 1; i > acc.lastUserEntry; i--) {
        const step = acc.entries[i].step;
        if (step.kind === 'tool_result') {
          step.interrupted = true;
          break;
        }
      }
      return;
    }
    case 'error': {
      const text = typeof event.message === 'string' ? event.message : headOf(jsonText(event), 500);
      push(acc, { kind: 'error', text }, time);
      return;
    }
    case 'thread_name_updated':
      if (typeof event.thread_name === 'string' && event.thread_name.trim()) acc.threadName = event.thread_name.trim();
      return;
    case 'collab_agent_spawn_end':
      if (typeof event.new_thread_id === 'string') {
        const prompt = typeof event.prompt === 'string' ? titleLine(event.prompt, 200) : undefined;
        push(acc, { kind: 'subagent', traceId: `codex:${event.new_thread_id}`, description: prompt }, time);
      }
      return;
    default:
      if (!IGNORED_EVENTS.has(type)) countUnknown(acc.unknown, `event_msg:${type}`);
  }
}

/** Events and outputs arrive in either order; apply to the result if it exists, else remember for it. */
function setExitCode(acc: Accumulator, callId: string, exitCode: number): void {
  const result = acc.results.get(callId);
  if (!result) {
    acc.pendingExit.set(callId, exitCode);
    return;
  }
  result.exitCode ??= exitCode;
  if (exitCode !== 0) result.isError = true;
}

function markFailed(acc: Accumulator, callId: string): void {
  const result = acc.results.get(callId);
  if (result) result.isError = true;
  else acc.pendingFailed.add(callId);
}
