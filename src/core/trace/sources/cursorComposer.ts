import type { SqlValue } from 'sql.js';
import { clipMiddle, titleLine } from '../../util/text';
import type { TraceDraft } from '../model';
import { countUnknown, isRecord, storedOutput } from './common';
import { uriPath } from './cursorFolders';
import { type Acc, clientTime, parseObject, push, str, timeOf, unreadableWhy } from './cursorSteps';
import { jsonText } from './jsonText';
import { SessionLosses } from './sessionLosses';
import { cellJson } from './sqlite';
import type { ReadContext, SessionFile } from './types';

// One Cursor composer (a chat or agent session of the global database) → a trace: its bubbles, tool calls and
// their outputs, from the headers' bubble rows or an older build's inline conversation.

const PENDING_STATUSES = new Set(['loading', 'pending', 'running', 'generating', 'streaming']);

export interface ComposerDraft {
  draft: TraceDraft;
  /** Folder hints, resolved after every composer is read. */
  paths: string[];
  children: string[];
}

export type Lookup = (params: SqlValue[]) => { rows: Array<Record<string, SqlValue>>; error?: Error };

/**
 * One composer's trace, from what of it can be read; one that gives no step is empty (quietly: no message yet),
 * unreadable in itself (skipped, said) or lost to damage (counted).
 */
export function readComposer(
  key: string,
  id: string,
  data: Record<string, unknown>,
  file: SessionFile,
  ctx: ReadContext,
  bubbleOf: Lookup,
  losses: SessionLosses,
): ComposerDraft | undefined {
  const modelConfig = isRecord(data.modelConfig) ? data.modelConfig : undefined;
  const acc: Acc = { ctx, steps: [], unknown: {}, synthetic: 0, model: str(modelConfig?.modelName) };
  const headers = Array.isArray(data.fullConversationHeadersOnly) ? data.fullConversationHeadersOnly : [];
  let damage: Error | undefined;
  if (headers.length > 0) {
    for (const header of headers) {
      if (!isRecord(header) || typeof header.bubbleId !== 'string') {
        countUnknown(acc.unknown, 'header:invalid');
        continue;
      }
      const found = bubbleOf([`bubbleId:${id}:${header.bubbleId}`]);
      if (found.error) {
        damage ??= found.error;
        losses.damaged(found.error);
        countUnknown(acc.unknown, 'bubble:unreadable');
        continue;
      }
      if (!found.rows[0]) {
        countUnknown(acc.unknown, 'bubble:missing');
        continue;
      }
      applyBubble(
        acc,
        cellJson(found.rows[0].value),
        typeof header.type === 'number' ? header.type : undefined,
        header.bubbleId,
      );
    }
  } else if (Array.isArray(data.conversation)) {
    for (const bubble of data.conversation)
      applyBubble(acc, bubble, undefined, isRecord(bubble) ? str(bubble.bubbleId) : undefined);
  }
  if (acc.steps.length === 0) {
    const messages = headers.length || (Array.isArray(data.conversation) ? data.conversation.length : 0);
    if (damage) losses.lose(key, damage);
    else if (Object.keys(acc.unknown).length > 0) losses.skip(key, unreadableWhy(messages, acc.unknown));
    else if (!Array.isArray(data.fullConversationHeadersOnly) && !Array.isArray(data.conversation))
      losses.skip(key, 'no conversation in a shape this reader knows');
    return undefined;
  }
  const firstUser = acc.steps.find((s) => s.kind === 'user');
  const workspace =
    isRecord(data.workspaceIdentifier) && isRecord(data.workspaceIdentifier.uri)
      ? data.workspaceIdentifier.uri
      : undefined;
  const context = isRecord(data.context) ? data.context : undefined;
  const paths = (Array.isArray(context?.fileSelections) ? context.fileSelections : [])
    .map((s) => (isRecord(s) && isRecord(s.uri) ? uriPath(s.uri) : undefined))
    .filter((p): p is string => p !== undefined);
  return {
    draft: {
      id: `cursor:${id}`,
      agent: 'cursor',
      cwd: workspace ? uriPath(workspace) : undefined,
      title: str(data.name)?.trim() || (firstUser?.kind === 'user' ? titleLine(firstUser.text) : undefined),
      startedAt: timeOf(data.createdAt) ?? acc.firstTime,
      endedAt: timeOf(data.lastUpdatedAt) ?? acc.lastTime,
      source: { path: file.path, bytes: file.bytes },
      steps: acc.steps,
      unknown: acc.unknown,
      warnings: [],
    },
    paths,
    children: Array.isArray(data.subComposerIds)
      ? data.subComposerIds.filter((c): c is string => typeof c === 'string')
      : [],
  };
}

function applyBubble(acc: Acc, bubble: unknown, headerType: number | undefined, bubbleId: string | undefined): void {
  if (bubble === null) return; // deleted bubbles are stored as JSON null
  if (!isRecord(bubble)) {
    countUnknown(acc.unknown, 'bubble:invalid');
    return;
  }
  const type = typeof bubble.type === 'number' ? bubble.type : headerType;
  const time = timeOf(bubble.createdAt) ?? clientTime(bubble.timingInfo);
  if (type === 1) {
    const text = userText(bubble);
    if (text) push(acc, { kind: 'user', text }, time);
    return;
  }
  if (type !== 2) {
    countUnknown(acc.unknown, `bubble:type:${type ?? 'none'}`);
    return;
  }
  const text = typeof bubble.text === 'string' ? bubble.text.trim() : '';
  const modelInfo = isRecord(bubble.modelInfo) ? bubble.modelInfo : undefined;
  if (text) push(acc, { kind: 'assistant', text, model: str(modelInfo?.modelName) ?? acc.model }, time);
  const tool = bubble.toolFormerData;
  if (isRecord(tool) && (tool.name !== undefined || tool.tool !== undefined || tool.rawArgs !== undefined))
    applyTool(acc, tool, bubbleId, time);
}

function applyTool(
  acc: Acc,
  tool: Record<string, unknown>,
  bubbleId: string | undefined,
  time: string | undefined,
): void {
  const name =
    str(tool.name) ??
    (typeof tool.tool === 'string' ? tool.tool : typeof tool.tool === 'number' ? `tool-${tool.tool}` : 'unknown');
  const callId = str(tool.toolCallId) ?? bubbleId ?? `cursor-call-${++acc.synthetic}`;
  const args =
    typeof tool.rawArgs === 'string'
      ? tool.rawArgs
      : tool.params === undefined
        ? ''
        : typeof tool.params === 'string'
          ? tool.params
          : jsonText(tool.params);
  const parsedArgs = parseObject(args);
  push(
    acc,
    {
      kind: 'tool_call',
      callId,
      tool: name,
      command: typeof parsedArgs?.command === 'string' ? parsedArgs.command : undefined,
      input: clipMiddle(args, acc.ctx.maxOutputChars).text,
    },
    time,
  );

  const status = str(tool.status);
  const result = toolOutput(tool.result);
  let ending: 'ok' | 'error' | 'cancelled' | 'rejected' | undefined;
  if (tool.userDecision === 'rejected' || status === 'rejected' || result.rejected) ending = 'rejected';
  else if (status === 'completed' || status === 'success') ending = 'ok';
  else if (status === 'error' || status === 'failed') ending = 'error';
  else if (status === 'cancelled' || status === 'canceled' || status === 'aborted') ending = 'cancelled';
  else if (status === undefined) ending = tool.result !== undefined ? 'ok' : undefined;
  else if (!PENDING_STATUSES.has(status)) countUnknown(acc.unknown, `tool-status:${status}`);
  if (!ending) return;

  const error = errorText(tool.error);
  let output = result.text;
  if (error && ending !== 'ok') output = output ? `${error}\n${output}` : error;
  else if (error) output = output ? `${output}\n${error}` : error;
  if (!output && ending === 'rejected') output = 'rejected by the user';
  if (!output && ending === 'cancelled') output = 'cancelled';
  push(
    acc,
    {
      kind: 'tool_result',
      callId,
      ...storedOutput(output, acc.ctx.maxOutputChars),
      isError: ending !== 'ok' || error !== undefined || (result.exitCode !== undefined && result.exitCode !== 0),
      exitCode: result.exitCode,
      interrupted: ending === 'cancelled' ? true : undefined,
    },
    time,
  );
}

/** `result` is JSON text or an object; terminal results carry `output` and an exit code. */
function toolOutput(result: unknown): { text: string; exitCode?: number; rejected?: boolean } {
  if (result === undefined || result === null) return { text: '' };
  const value = typeof result === 'string' ? (parseObject(result) ?? result) : result;
  if (typeof value === 'string') return { text: value };
  if (!isRecord(value)) return { text: jsonText(value) };
  const code = [value.exitCode, value.exitCodeV2, value.exit_code].find(
    (c): c is number => typeof c === 'number' && Number.isInteger(c),
  );
  const text = typeof value.output === 'string' ? value.output : typeof result === 'string' ? result : jsonText(value);
  return { text, exitCode: code, rejected: value.rejected === true ? true : undefined };
}

function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return error.trim() || undefined;
  if (isRecord(error)) return str(error.message) ?? jsonText(error);
  return undefined;
}

function userText(bubble: Record<string, unknown>): string | undefined {
  const text = typeof bubble.text === 'string' ? bubble.text.trim() : '';
  if (text) return text;
  // Rich text (Lexical JSON) when the plain text was not kept.
  const rich = typeof bubble.richText === 'string' ? parseObject(bubble.richText) : undefined;
  const fromRich = rich ? lexicalText(rich).trim() : '';
  return fromRich || undefined;
}

function lexicalText(node: unknown): string {
  if (!isRecord(node)) return '';
  if (typeof node.text === 'string') return node.text;
  const children = Array.isArray(node.children) ? node.children : isRecord(node.root) ? [node.root] : [];
  return children.map(lexicalText).join(node.type === 'root' ? '\n' : '');
}
