import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { clipMiddle, titleLine } from '../../util/text';
import { countUnknown, exitCodeAtEnd, isRecord, msToIso, storedOutput } from './common';
import { push, pushCall, type Acc } from './copilotSteps';
import { workspaceJsonFolder } from './vscodeWorkspace';

// VS Code's chat sessions (`chatSessions/<id>.json`, ISerializableChatData v1–v3, or replayed from a mutation log):
// requests, their tool-call rounds and results, into steps.

export const ChatData = z.looseObject({
  version: z.number().optional(),
  sessionId: z.string().optional(),
  creationDate: z.number().optional(),
  lastMessageDate: z.number().optional(),
  customTitle: z.string().optional(),
  computedTitle: z.string().optional(),
  requests: z.array(z.unknown()),
});
export type ChatData = z.infer<typeof ChatData>;
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

/** ResponseModelState in VS Code's chatService. */
const MODEL_STATE_CANCELLED = 2;
const MODEL_STATE_FAILED = 3;

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

export async function applyChatData(acc: Acc, data: ChatData): Promise<void> {
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
  return /chatsessions$/i.test(basename(folder)) ? workspaceJsonFolder(dirname(folder)) : undefined;
}
