import { z } from 'zod';
import { headOf, titleLine } from '../../util/text';
import { countUnknown, isRecord, storedOutput, validTime } from './common';
import { push, pushCall, type Acc } from './copilotSteps';
import { jsonText } from './jsonText';

// Copilot's agent event logs (Copilot CLI `events.jsonl`, VS Code Copilot Chat `transcripts/<id>.jsonl`): one event
// a line, replayed into steps.

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

export function applyEvent(acc: Acc, json: Record<string, unknown>): void {
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
