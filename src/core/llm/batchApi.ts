import OpenAI, { toFile } from 'openai';
import type { ChatMessage } from './client';
import { checkEndpoint } from './endpoint';
import { abortableSleep } from './rateLimit';
import { redactMessages } from './redactMessages';
import { redactText } from '../trace/redact';
import { headOf } from '../util/text';

/**
 * The OpenAI Batch API as a transport: chat-completion requests uploaded as one JSONL file, answered within 24 h at
 * a lower price, results downloaded as files. Everything sent is redacted first; everything received is untrusted
 * text, parsed line by line so one bad line costs one answer, never the batch.
 */

/** One chat-completions request; `customId` names its answer. */
export interface BatchLine {
  customId: string;
  body: Record<string, unknown>;
}

export type BatchState =
  'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

export interface BatchStatus {
  batchId: string;
  status: BatchState;
  counts: { total: number; completed: number; failed: number };
  inputFileId?: string;
  outputFileId?: string;
  errorFileId?: string;
  /** The batch's own errors (validation of the input file), redacted. */
  errors: string[];
}

export interface BatchAnswer {
  /** The model's text, untrusted: parse it with a schema, never evaluate it. */
  content: string;
  finishReason: string;
  usage: { inputTokens: number; outputTokens: number };
}

export interface BatchResults {
  answers: Map<string, BatchAnswer>;
  /** Why a request has no answer (redacted). */
  failed: Map<string, string>;
  /** Counted notes: malformed lines, answers for requests never sent. */
  warnings: string[];
}

export interface BatchApiOptions {
  baseUrl: string;
  apiKey: string;
  /** Plain http to another machine; only from the user's own settings. */
  allowInsecureHttp?: boolean;
  /** Per HTTP request (uploads can be large). */
  timeoutMs?: number;
  /** Retries of an idempotent GET (poll, download) after 429, 5xx or a dropped connection. */
  maxRetries?: number;
  /** Base of that retry backoff (tests shorten it). */
  backoffBaseMs?: number;
}

export interface WaitOptions {
  /** First poll interval; it doubles after each poll up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  signal?: AbortSignal;
  onPoll?: (status: BatchStatus) => void;
}

const TERMINAL = new Set<BatchState>(['completed', 'failed', 'expired', 'cancelled']);
const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const CHAT_ENDPOINT = '/v1/chat/completions';

/** An endpoint answer that ends the operation; `status` is the HTTP status when there was one. */
export class BatchApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    /** A 429, a 5xx, a dropped connection: worth another try. */
    readonly transient: boolean,
    /** The endpoint's Retry-After, when it gave one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'BatchApiError';
  }
}

export class BatchApiClient {
  private readonly client: OpenAI;
  /** Ids sent per batch, so results can tell an expired request from an id the endpoint made up. */
  private readonly submitted = new Map<string, string[]>();

  constructor(private readonly options: BatchApiOptions) {
    checkEndpoint(options.baseUrl, { allowInsecureHttp: options.allowInsecureHttp });
    // Retries are ours: only idempotent requests are retried (a retried create could start a second paid batch).
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
    });
  }

  /** Uploads the requests (redacted) and starts a batch over them. */
  async submit(
    lines: readonly BatchLine[],
    metadata?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ batchId: string; inputFileId: string }> {
    const upload = await toFile(Buffer.from(toJsonl(lines), 'utf8'), 'combee-batch.jsonl', {
      type: 'application/jsonl',
    });
    const file = await this.call('uploading the batch input', signal, () =>
      this.client.files.create({ file: upload, purpose: 'batch' }, { signal }),
    );
    const batch = await this.call('creating the batch', signal, () =>
      this.client.batches.create(
        { input_file_id: file.id, endpoint: CHAT_ENDPOINT, completion_window: '24h', metadata },
        { signal },
      ),
    );
    this.submitted.set(
      batch.id,
      lines.map((l) => l.customId),
    );
    return { batchId: batch.id, inputFileId: file.id };
  }

  async status(batchId: string, signal?: AbortSignal): Promise<BatchStatus> {
    const batch = await this.retrying('reading the batch status', signal, () =>
      this.client.batches.retrieve(batchId, { signal }),
    );
    return toStatus(batch);
  }

  async cancel(batchId: string, signal?: AbortSignal): Promise<BatchStatus> {
    return toStatus(
      await this.call('cancelling the batch', signal, () => this.client.batches.cancel(batchId, { signal })),
    );
  }

  /** Polls until the batch is completed, failed, expired or cancelled. */
  async waitFor(batchId: string, options: WaitOptions = {}): Promise<BatchStatus> {
    const cap = options.maxPollMs ?? 60_000;
    let interval = Math.min(options.pollMs ?? 5_000, cap);
    for (;;) {
      const status = await this.status(batchId, options.signal);
      options.onPoll?.(status);
      if (TERMINAL.has(status.status)) return status;
      await abortableSleep(interval, options.signal).catch(() => {
        throw abortError(options.signal);
      });
      interval = Math.min(interval * 2, cap);
    }
  }

  /**
   * Answers and failures of a finished batch. `submitted` lists the ids sent; without it, the ids this client
   * submitted, else those of the input file.
   */
  async results(batch: BatchStatus, submitted?: readonly string[], signal?: AbortSignal): Promise<BatchResults> {
    const sent = new Set(submitted ?? this.submitted.get(batch.batchId) ?? (await this.inputIds(batch, signal)));
    const results: BatchResults = { answers: new Map(), failed: new Map(), warnings: [] };
    const tally = { malformed: 0, unknown: 0, duplicate: 0 };
    for (const [fileId, which] of [
      [batch.outputFileId, 'output'],
      [batch.errorFileId, 'error'],
    ] as const) {
      if (!fileId) continue;
      const text = await this.download(fileId, `downloading the batch ${which} file`, signal);
      for (const raw of text.split('\n')) {
        if (raw.trim() === '') continue;
        const line = parseResultLine(raw);
        if (!line) tally.malformed++;
        else if (!sent.has(line.customId)) tally.unknown++;
        else if (results.answers.has(line.customId) || results.failed.has(line.customId)) tally.duplicate++;
        else if ('answer' in line) results.answers.set(line.customId, line.answer);
        else results.failed.set(line.customId, line.reason);
      }
    }
    if (tally.malformed) results.warnings.push(`${plural(tally.malformed, 'malformed result line')} skipped`);
    if (tally.unknown) results.warnings.push(`${plural(tally.unknown, 'result')} for requests never sent ignored`);
    if (tally.duplicate) results.warnings.push(`${plural(tally.duplicate, 'repeated result')} ignored`);
    const missing =
      batch.status === 'failed' && batch.errors.length > 0
        ? `batch failed: ${headOf(batch.errors.join('; '), 300)}`
        : `no answer (batch ${batch.status})`;
    for (const id of sent) if (!results.answers.has(id) && !results.failed.has(id)) results.failed.set(id, missing);
    return results;
  }

  /** The custom ids of the batch's input file (a batch submitted by an earlier process). */
  private async inputIds(batch: BatchStatus, signal?: AbortSignal): Promise<string[]> {
    if (!batch.inputFileId) return [];
    const text = await this.download(batch.inputFileId, 'downloading the batch input file', signal);
    const ids: string[] = [];
    for (const raw of text.split('\n')) {
      try {
        const id = (JSON.parse(raw) as { custom_id?: unknown }).custom_id;
        if (typeof id === 'string') ids.push(id);
      } catch {
        // a line that is not JSON was not a request
      }
    }
    return ids;
  }

  private download(fileId: string, what: string, signal?: AbortSignal): Promise<string> {
    return this.retrying(what, signal, async () => (await this.client.files.content(fileId, { signal })).text());
  }

  /** One request; an endpoint error becomes a BatchApiError saying what failed. */
  private async call<T>(what: string, signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) throw abortError(signal);
      const status = error instanceof OpenAI.APIError ? error.status : undefined;
      const transient = error instanceof OpenAI.APIConnectionError || (status !== undefined && RETRYABLE.has(status));
      const after = error instanceof OpenAI.APIError ? Number(error.headers?.get('retry-after')) : NaN;
      const retryAfterMs = Number.isFinite(after) && after > 0 ? after * 1000 : undefined;
      throw new BatchApiError(`${what} failed: ${describe(error, status)}`, status, transient, retryAfterMs);
    }
  }

  /** An idempotent request, retried after transient failures with backoff. */
  private async retrying<T>(what: string, signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> {
    const maxRetries = this.options.maxRetries ?? 4;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call(what, signal, send);
      } catch (error) {
        if (!(error instanceof BatchApiError && error.transient) || attempt >= maxRetries) throw error;
        const backoff = (this.options.backoffBaseMs ?? 1000) * 2 ** attempt * (0.5 + Math.random());
        const wait = Math.min(error.retryAfterMs ?? backoff, 60_000);
        await abortableSleep(wait, signal).catch(() => {
          throw abortError(signal);
        });
      }
    }
  }
}

/** The JSONL input file; every message's text is redacted here, the last point before it leaves. */
function toJsonl(lines: readonly BatchLine[]): string {
  if (lines.length === 0) throw new Error('a batch needs at least one request');
  const ids = new Set<string>();
  return lines
    .map(({ customId, body }) => {
      if (!customId || ids.has(customId)) throw new Error(`batch request ids must be unique and non-empty`);
      ids.add(customId);
      return `${JSON.stringify({ custom_id: customId, method: 'POST', url: CHAT_ENDPOINT, body: redactBody(body) })}\n`;
    })
    .join('');
}

function redactBody(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.messages)) throw new Error('a batch request body needs messages');
  const messages = body.messages.map((message: unknown) => {
    if (!isObject(message)) throw new Error('a batch request message must be an object');
    const { content } = message;
    if (typeof content === 'string') return redactMessages([message as unknown as ChatMessage])[0];
    if (Array.isArray(content)) return { ...message, content: content.map(redactPart) };
    if (content === null || content === undefined) return message;
    throw new Error('a batch request may only carry text content');
  });
  return { ...body, messages };
}

/** Text parts are redacted; any other part (an image, audio) could carry what redaction cannot see. */
function redactPart(part: unknown): unknown {
  if (isObject(part) && part.type === 'text' && typeof part.text === 'string')
    return { ...part, text: redactText(part.text) };
  throw new Error('a batch request may only carry text content');
}

type ResultLine = { customId: string } & ({ answer: BatchAnswer } | { reason: string });

/** One line of an output or error file, checked field by field; undefined when it is not a result line at all. */
function parseResultLine(raw: string): ResultLine | undefined {
  let line: unknown;
  try {
    line = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(line) || typeof line.custom_id !== 'string') return undefined;
  const customId = line.custom_id;
  const response = isObject(line.response) ? line.response : undefined;
  const body = isObject(response?.body) ? response.body : undefined;
  if (isObject(line.error)) {
    const code = typeof line.error.code === 'string' ? `${line.error.code}: ` : '';
    return { customId, reason: clean(`${code}${String(line.error.message ?? 'failed')}`) };
  }
  if (!response) return { customId, reason: 'no response' };
  const status = response.status_code;
  if (status !== 200) {
    const error = isObject(body?.error) ? body.error : undefined;
    return { customId, reason: clean(`HTTP ${String(status)}: ${String(error?.message ?? 'no message')}`) };
  }
  const choice = Array.isArray(body?.choices) && isObject(body.choices[0]) ? body.choices[0] : undefined;
  const message = isObject(choice?.message) ? choice.message : undefined;
  if (typeof message?.content !== 'string') return { customId, reason: 'the answer has no text content' };
  const usage = isObject(body?.usage) ? body.usage : {};
  return {
    customId,
    answer: {
      content: message.content,
      finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : 'stop',
      usage: { inputTokens: count(usage.prompt_tokens), outputTokens: count(usage.completion_tokens) },
    },
  };
}

function toStatus(batch: OpenAI.Batch): BatchStatus {
  const counts = batch.request_counts ?? { total: 0, completed: 0, failed: 0 };
  return {
    batchId: batch.id,
    status: batch.status,
    counts: { total: count(counts.total), completed: count(counts.completed), failed: count(counts.failed) },
    inputFileId: batch.input_file_id || undefined,
    outputFileId: batch.output_file_id || undefined,
    errorFileId: batch.error_file_id || undefined,
    errors: (batch.errors?.data ?? []).map((e) =>
      clean(`${e.code ?? 'error'}: ${e.message ?? ''}${typeof e.line === 'number' ? ` (line ${e.line})` : ''}`),
    ),
  };
}

function describe(error: unknown, status: number | undefined): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'request timed out';
  if (error instanceof OpenAI.APIConnectionError) return `connection failed (${clean(error.message)})`;
  if (status === 401) return 'the endpoint rejected the API key (401)';
  if (status === 404) return 'not found (404); the endpoint may not offer the Batch API';
  if (status === 429) return 'rate limited (429)';
  if (status !== undefined) return `HTTP ${status}: ${clean((error as Error).message)}`;
  return clean((error as Error).message);
}

/** Text from the endpoint: redacted and bounded before it reaches a message or a log. */
const clean = (text: string) => headOf(redactText(text), 300);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('aborted');
  error.name = 'AbortError';
  return error;
}
