import { z } from 'zod';
import { redactDeep } from '../secrets/deep';
import { redactText } from '../trace/redact';
import { extractJson, LlmOutputError, type ChatMessage, type JsonRequest, type JsonResponse } from './client';

export interface ChatTurn {
  content: string;
  finishReason: string;
}

export interface UsageTally {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Requests sent again: after an error, a rejected JSON mode, or an invalid answer (the repair). */
  retries: number;
  /** Second copies of a request sent while the first was still unanswered. */
  hedges: number;
}

/** One model call; each client brings its own transport (HTTP, vscode.lm). */
export type ChatFn = (messages: ChatMessage[], warnings: string[], usage: UsageTally) => Promise<ChatTurn>;

/**
 * Shared by every client: ask, validate against the schema, and on an invalid or cut-off answer make exactly one
 * repair attempt that shows the model its answer and what was wrong. Still invalid → LlmOutputError.
 */
export async function completeJsonWithRepair<T>(request: JsonRequest<T>, chat: ChatFn): Promise<JsonResponse<T>> {
  const warnings: string[] = [];
  const usage: UsageTally = { inputTokens: 0, outputTokens: 0, costUsd: 0, retries: 0, hedges: 0 };
  const started = Date.now();
  // a model's answer is untrusted text: a secret it repeats (or makes up) goes no further than here
  const done = (value: T): JsonResponse<T> => ({
    value: redactDeep(value, redactText),
    usage: { ...usage, latencyMs: Date.now() - started },
    warnings,
  });
  const first = await chat(request.messages, warnings, usage);
  const firstCheck =
    first.finishReason === 'length'
      ? { ok: false as const, problem: 'the answer was cut off (finish_reason: length)' }
      : parseAnswer(first.content, request.schema);
  if (firstCheck.ok) return done(firstCheck.value);
  warnings.push(`invalid ${request.schemaName} answer (${firstCheck.problem}); asked the model to repair it`);
  usage.retries++;
  const repairMessages: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', content: first.content.slice(0, 20_000) },
    {
      role: 'user',
      content: `That answer is not valid: ${firstCheck.problem}. Reply again with only the complete JSON object, shorter if needed, matching the schema exactly.`,
    },
  ];
  const second = await chat(repairMessages, warnings, usage);
  const repaired =
    second.finishReason === 'length'
      ? { ok: false as const, problem: 'cut off again' }
      : parseAnswer(second.content, request.schema);
  if (repaired.ok) return done(repaired.value);
  throw new LlmOutputError(redactText(`${request.schemaName}: invalid answer after one repair (${repaired.problem})`));
}

export function parseAnswer<T>(
  content: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = extractJson(content);
  } catch (error) {
    return { ok: false, problem: (error as Error).message };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, problem: `${issue.path.join('.') || 'root'}: ${issue.message}` };
}

/** For endpoints without structured output: the schema goes into the last user message. */
export function withJsonInstruction<T>(messages: ChatMessage[], request: JsonRequest<T>): ChatMessage[] {
  const schema = JSON.stringify(z.toJSONSchema(request.schema, { io: 'input' }));
  const note = `Answer with one JSON object only, no prose, matching this JSON schema:\n${schema}`;
  const last = messages[messages.length - 1];
  return [...messages.slice(0, -1), { ...last, content: `${last.content}\n\n${note}` }];
}
