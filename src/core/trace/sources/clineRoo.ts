import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { Step, StepInput, TraceDraft } from '../model';
import { clipMiddle, titleLine } from '../../util/text';
import { contentBlock, countUnknown, isRecord, msToIso, storedOutput } from './common';
import type { ReadContext, SessionFile, SourceReader } from './types';
import { jsonText } from './jsonText';
import { readJsonDocument } from './jsonDocument';
import { segments } from './sniffHead';
import { pushStep } from './sessionDraft';

// Cline and Roo Code keep a folder per task (research §5): `tasks/<taskId>/api_conversation_history.json` is what the
// model saw (Anthropic MessageParam[], or Roo's v2 `{version:2, messages}` of AI-SDK messages) and `ui_messages.json`
// what the user saw (timestamps, errors). The API history is the unit; its siblings add time, title, cwd and errors.
// Tools come as tool_use/tool_result blocks, or (Cline) as XML inside the assistant text answered by user text
// blocks `[tool for 'x'] Result:` that are paired to the calls by order and tool name.

const ApiMessage = z.looseObject({
  role: z.string().optional(),
  type: z.string().optional(),
  content: z.union([z.string(), z.array(z.unknown())]).optional(),
  ts: z.number().optional(),
  modelInfo: z.looseObject({ modelId: z.string().optional() }).optional(),
});
type ApiMessage = z.infer<typeof ApiMessage>;
const UiMessage = z.looseObject({
  ts: z.number().optional(),
  type: z.string().optional(),
  say: z.string().optional(),
  ask: z.string().optional(),
  text: z.string().optional(),
  conversationHistoryIndex: z.number().optional(),
});

// Cline writes the Anthropic message array; Roo's v2 wraps it as {version: 2, messages}.
const ApiHistory = z.union([z.array(z.unknown()), z.looseObject({ messages: z.array(z.unknown()) })]);
const API_FILE = 'api_conversation_history.json';
const ROO_EXTENSION = 'rooveterinaryinc.roo-cline';

/** Cline/Roo XML tool names; other tags in the text (thinking, file contents) are not calls. */
const XML_TOOLS = [
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'codebase_search',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'act_mode_respond',
  'new_task',
  'switch_mode',
  'fetch_instructions',
  'load_mcp_documentation',
  'web_fetch',
  'web_search',
  'update_todo_list',
  'condense',
  'summarize_task',
  'report_bug',
  'new_rule',
  'focus_chain',
  'run_slash_command',
  'generate_image',
];
const XML_TOOL = new RegExp(`<(${XML_TOOLS.join('|')})>([\\s\\S]*?)</\\1>`, 'g');
const XML_PARAM = /<([a-z_]+)>([\s\S]*?)<\/\1>/g;
const RESULT_HEADER = /^\[([\w-]+)(?: for '([\s\S]*?)')?\] Result:\s*/;
const ENVIRONMENT = /<environment_details>[\s\S]*?(?:<\/environment_details>|$)/g;
const CWD_LINE = /Current Working Directory \(([^)\n]+)\)/;
const TOOL_FAILED =
  /^\s*(?:\[ERROR\]|The tool execution failed with the following error|The user denied this operation|Error executing)/;
/** Ignored assistant blocks: reasoning in its several spellings. */
const QUIET_BLOCKS = new Set(['thinking', 'redacted_thinking', 'reasoning']);

export const clineReader = taskReader('cline');
export const rooCodeReader = taskReader('roo-code');

function isRoo(path: string, head: string): boolean {
  return path.toLowerCase().includes(ROO_EXTENSION) || /^\{[^[]*"version"\s*:\s*2\b/.test(head);
}

function taskReader(agent: 'cline' | 'roo-code'): SourceReader {
  return {
    agent,
    accepts(path) {
      return basename(path) === API_FILE;
    },
    sniff(path, head) {
      const text = head.replace(/^\uFEFF/, '').trimStart();
      const shape =
        /^\[\s*(?:\]|\{\s*"(?:role|ts|type)"\s*:)/.test(text) ||
        (/^\{/.test(text) && /"messages"\s*:\s*\[/.test(text) && /"version"\s*:\s*\d/.test(text));
      return shape && isRoo(path, text) === (agent === 'roo-code');
    },
    claims(path) {
      // tasks/<task id>/api_conversation_history.json, under the extension's own folder for Roo Code
      return segments(path)[2] === 'tasks' && path.toLowerCase().includes(ROO_EXTENSION) === (agent === 'roo-code');
    },
    read(file, ctx) {
      return readTask(agent, file, ctx);
    },
  };
}

interface Pending {
  callId: string;
  tool: string;
}

interface OpenResult {
  callId: string;
  parts: string[];
  isError: boolean;
}

interface UiError {
  text: string;
  time?: string;
  afterMessage?: number;
}

interface Acc {
  ctx: ReadContext;
  steps: Step[];
  unknown: Record<string, number>;
  pending: Pending[];
  synthetic: number;
  cwd?: string;
  firstPrompt?: string;
  model?: string;
}

async function readTask(agent: 'cline' | 'roo-code', file: SessionFile, ctx: ReadContext): Promise<TraceDraft[]> {
  const history = await readJsonDocument(file, ctx, ApiHistory, {
    name: `${agent} task history`,
    expected: 'an array or {version, messages}',
  });
  if (!history || history === 'not-json') return [];
  const messages = Array.isArray(history) ? history : history.messages;
  const taskDir = dirname(file.path);
  const taskId = basename(taskDir);
  const acc: Acc = { ctx, steps: [], unknown: {}, pending: [], synthetic: 0 };
  const ui = await readUiMessages(join(taskDir, 'ui_messages.json'), ctx);
  const historyItem = await readJsonFile(join(taskDir, 'history_item.json'), ctx, 'quiet');
  const timed = messages.map((m) => (isRecord(m) && typeof m.ts === 'number' ? m.ts : undefined));

  // ui errors are placed after the API message they followed: by Cline's conversationHistoryIndex, else by time.
  const errorsAfter = new Map<number, UiError[]>();
  const trailing: UiError[] = [];
  for (const error of ui.errors) {
    let at = error.afterMessage;
    if (at === undefined && error.time) {
      const ms = Date.parse(error.time);
      for (let i = 0; i < timed.length; i++) if (timed[i] !== undefined && (timed[i] as number) <= ms) at = i;
    }
    if (at === undefined || at >= messages.length) trailing.push(error);
    else errorsAfter.set(at, [...(errorsAfter.get(at) ?? []), error]);
  }

  messages.forEach((raw, i) => {
    const parsed = ApiMessage.safeParse(raw);
    if (!parsed.success) {
      countUnknown(acc.unknown, 'message:invalid');
      return;
    }
    applyMessage(acc, parsed.data);
    for (const error of errorsAfter.get(i) ?? []) push(acc, { kind: 'error', text: error.text }, error.time);
  });
  for (const error of trailing) push(acc, { kind: 'error', text: error.text }, error.time);
  if (acc.steps.length === 0) return [];

  const historyCwd = isRecord(historyItem)
    ? (str(historyItem.workspace) ?? str(historyItem.cwdOnTaskInitialization))
    : undefined;
  return [
    {
      id: `${agent}:${taskId}`,
      agent,
      cwd: historyCwd ?? acc.cwd ?? ui.cwd,
      title:
        firstLine(ui.task) ?? (isRecord(historyItem) ? firstLine(str(historyItem.task)) : undefined) ?? acc.firstPrompt,
      startedAt: ui.startedAt ?? acc.steps.find((s) => s.time)?.time,
      endedAt: ui.endedAt ?? [...acc.steps].reverse().find((s) => s.time)?.time,
      source: { path: file.path, bytes: file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    },
  ];
}

function push(acc: Acc, step: StepInput, time: string | undefined): void {
  pushStep(acc.steps, step, time);
}

function applyMessage(acc: Acc, message: ApiMessage): void {
  const time = message.ts !== undefined ? msToIso(message.ts) : undefined;
  if (message.modelInfo?.modelId) acc.model = message.modelInfo.modelId;
  const blocks =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
  switch (message.role) {
    case 'assistant':
      for (const raw of blocks) applyAssistantBlock(acc, raw, time);
      return;
    case 'user':
    case 'tool': {
      let open: OpenResult | undefined;
      const close = () => {
        if (open) finishResult(acc, open, time);
        open = undefined;
      };
      for (const raw of blocks) {
        const b = contentBlock(raw, acc.unknown);
        if (!b) continue;
        if (b.type === 'text' && typeof b.text === 'string') {
          const text = stripEnvironment(acc, b.text);
          const header = RESULT_HEADER.exec(text);
          if (header) {
            close();
            open = { callId: takePending(acc, header[1]), parts: [text.slice(header[0].length)], isError: false };
          } else if (open) {
            open.parts.push(text);
          } else {
            pushUserText(acc, text, time);
          }
        } else if (b.type === 'tool_result' || b.type === 'tool-result') {
          close();
          const callId = str(b.tool_use_id) ?? str(b.toolCallId) ?? takePending(acc, str(b.toolName) ?? '');
          acc.pending = acc.pending.filter((p) => p.callId !== callId);
          const { text, error } = resultContent(b.type === 'tool_result' ? b.content : b.output);
          finishResult(acc, { callId, parts: [text], isError: b.is_error === true || error }, time);
        } else if (b.type !== 'image' && b.type !== 'file' && !QUIET_BLOCKS.has(b.type)) {
          countUnknown(acc.unknown, `user-block:${b.type}`);
        }
      }
      close();
      return;
    }
    default:
      // Roo keeps standalone `{type:"reasoning"}` items between messages.
      if (message.type === 'reasoning' || message.role === 'system') return;
      countUnknown(acc.unknown, `role:${message.role ?? message.type ?? 'none'}`);
  }
}

function applyAssistantBlock(acc: Acc, raw: unknown, time: string | undefined): void {
  const b = contentBlock(raw, acc.unknown);
  if (!b) return;
  switch (b.type) {
    case 'text': {
      if (typeof b.text !== 'string') return;
      const calls: Array<{ tool: string; params: Record<string, string> }> = [];
      const prose = b.text
        .replace(/<thinking>[\s\S]*?<\/thinking>/g, '')
        .replace(XML_TOOL, (_all, tool: string, body: string) => {
          calls.push({ tool, params: xmlParams(body) });
          return '';
        })
        .trim();
      if (prose) push(acc, { kind: 'assistant', text: prose, model: acc.model }, time);
      for (const call of calls) {
        const callId = `${call.tool}-${++acc.synthetic}`;
        acc.pending.push({ callId, tool: call.tool });
        push(
          acc,
          {
            kind: 'tool_call',
            callId,
            tool: call.tool,
            command: call.tool === 'execute_command' ? call.params.command : undefined,
            input: clipMiddle(jsonText(call.params), acc.ctx.maxOutputChars).text,
          },
          time,
        );
      }
      return;
    }
    case 'tool_use':
    case 'tool-call': {
      const tool = str(b.name) ?? str(b.toolName) ?? 'unknown';
      const callId = str(b.id) ?? str(b.toolCallId) ?? `${tool}-${++acc.synthetic}`;
      const input = b.input ?? b.args ?? {};
      acc.pending.push({ callId, tool });
      push(
        acc,
        {
          kind: 'tool_call',
          callId,
          tool,
          command: isRecord(input) && typeof input.command === 'string' ? input.command : undefined,
          input: clipMiddle(typeof input === 'string' ? input : jsonText(input), acc.ctx.maxOutputChars).text,
        },
        time,
      );
      return;
    }
    default:
      if (!QUIET_BLOCKS.has(b.type)) countUnknown(acc.unknown, `assistant-block:${b.type}`);
  }
}

/** The oldest unanswered call of that tool, else the oldest of any: Cline answers calls in order. */
function takePending(acc: Acc, tool: string): string {
  let at = acc.pending.findIndex((p) => p.tool === tool);
  if (at === -1 && acc.pending.length > 0) at = 0;
  if (at === -1) return `${tool || 'tool'}-result-${++acc.synthetic}`;
  const [taken] = acc.pending.splice(at, 1);
  return taken.callId;
}

function finishResult(acc: Acc, open: OpenResult, time: string | undefined): void {
  const output = open.parts.join('\n').replace(ENVIRONMENT, '').trim();
  const exit = /\bExit code:? (-?\d+)/i.exec(output);
  const exitCode = exit ? Number(exit[1]) : undefined;
  const denied = /^\s*The user denied this operation/.test(output);
  push(
    acc,
    {
      kind: 'tool_result',
      callId: open.callId,
      ...storedOutput(output, acc.ctx.maxOutputChars),
      isError: open.isError || TOOL_FAILED.test(output) || (exitCode !== undefined && exitCode !== 0),
      exitCode,
    },
    time,
  );
  // Answers to ask_followup_question and feedback on attempt_completion are the person talking.
  const said = [...output.matchAll(/<(answer|feedback)>\s*([\s\S]*?)\s*<\/\1>/g)].map((m) => m[2]).filter(Boolean);
  if (said.length > 0) push(acc, { kind: 'user', text: said.join('\n') }, time);
  else if (denied) {
    const reason = /The user denied this operation[^\n]*\n+([\s\S]+)/.exec(output)?.[1]?.trim();
    if (reason) push(acc, { kind: 'user', text: reason }, time);
  }
}

function pushUserText(acc: Acc, raw: string, time: string | undefined): void {
  let text = raw.trim();
  if (!text) return;
  // Injected notices: resumption banners, tool-use reminders, condensed-context summaries.
  const meta =
    /^\[(?:TASK RESUMPTION|ERROR|NOTE)\]/.test(text) || /^<(?:explicit_instructions|slash-command)/.test(text);
  text = text.replace(/^<(task|feedback|user_message|answer)>\s*([\s\S]*?)\s*<\/\1>$/, '$2').trim();
  if (!text) return;
  if (!meta) acc.firstPrompt ??= titleLine(text);
  push(acc, { kind: 'user', text, isMeta: meta ? true : undefined }, time);
}

function stripEnvironment(acc: Acc, text: string): string {
  if (!acc.cwd) {
    const cwd = CWD_LINE.exec(text);
    if (cwd) acc.cwd = cwd[1].trim();
  }
  return text.replace(ENVIRONMENT, '').trim();
}

/** Param tags inside an XML tool call; values keep their inner text as written. */
function xmlParams(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of body.matchAll(XML_PARAM)) params[match[1]] ??= match[2].replace(/^\n|\n$/g, '');
  return params;
}

/** tool_result content (string or blocks) or an AI-SDK tool-result output `{type, value}`. */
function resultContent(content: unknown): { text: string; error: boolean } {
  if (typeof content === 'string') return { text: content, error: false };
  if (Array.isArray(content)) {
    return {
      text: content
        .map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : ''))
        .filter(Boolean)
        .join('\n'),
      error: false,
    };
  }
  if (isRecord(content)) {
    const error = typeof content.type === 'string' && content.type.startsWith('error');
    if (typeof content.value === 'string') return { text: content.value, error };
    if (Array.isArray(content.value)) return { ...resultContent(content.value), error };
    return { text: jsonText(content.value ?? content), error };
  }
  return { text: '', error: false };
}

interface UiSummary {
  errors: UiError[];
  startedAt?: string;
  endedAt?: string;
  task?: string;
  cwd?: string;
}

async function readUiMessages(path: string, ctx: ReadContext): Promise<UiSummary> {
  const summary: UiSummary = { errors: [] };
  const json = await readJsonFile(path, ctx, 'warn');
  if (!Array.isArray(json)) return summary;
  for (const raw of json) {
    const parsed = UiMessage.safeParse(raw);
    if (!parsed.success) continue;
    const m = parsed.data;
    const time = m.ts !== undefined ? msToIso(m.ts) : undefined;
    if (time) {
      summary.startedAt ??= time;
      summary.endedAt = time;
    }
    const kind = m.say ?? m.ask;
    const error = (text: string) => summary.errors.push({ text, time, afterMessage: m.conversationHistoryIndex });
    switch (kind) {
      case 'task':
        summary.task ??= m.text;
        break;
      case 'error':
      case 'diff_error':
      case 'clineignore_error':
      case 'rooignore_error':
      case 'api_req_failed':
      case 'mistake_limit_reached':
        error(m.text?.trim() || kind);
        break;
      case 'api_req_started': {
        const info = parseJson(m.text);
        if (!isRecord(info)) break;
        if (!summary.cwd && typeof info.request === 'string') summary.cwd = CWD_LINE.exec(info.request)?.[1]?.trim();
        if (info.cancelReason === 'user_cancelled') error('turn aborted: user_cancelled');
        else if (typeof info.streamingFailedMessage === 'string') error(info.streamingFailedMessage);
        else if (typeof info.cancelReason === 'string') error(`turn aborted: ${info.cancelReason}`);
        break;
      }
      default:
        break;
    }
  }
  return summary;
}

/** A sibling file of the task; one too large to parse whole is counted as skipped, a damaged one warned about or not. */
async function readJsonFile(path: string, ctx: ReadContext, damaged: 'warn' | 'quiet'): Promise<unknown> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    if (info.size >= ctx.maxDocumentBytes) {
      ctx.tooLarge(path);
      return undefined;
    }
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && damaged === 'warn')
      ctx.warn(`${path}: unreadable or malformed; ignored`);
    return undefined;
  }
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function firstLine(text: string | undefined): string | undefined {
  const line = text
    ?.split('\n')
    .find((l) => l.trim())
    ?.trim();
  return line ? titleLine(line) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
