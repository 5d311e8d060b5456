import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks: `/v1/chat/completions` and
 * `/v1/models`, scripted answers, latency, a concurrency cap answered with 429 + Retry-After, 500s, hangs,
 * malformed and truncated output; `/v1/files` and `/v1/batches` (the Batch API) answer batch lines with the same
 * responder. The client under test runs its real code path against it.
 */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
}

export interface ScriptedReply {
  /** Assistant message content (ignored when `raw` or an error status is given). */
  content?: string;
  finishReason?: 'stop' | 'length';
  status?: number;
  headers?: Record<string, string>;
  /** A raw response body, sent as is (malformed JSON, HTML error pages…). */
  raw?: string;
  delayMs?: number;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export type Responder = (request: ChatRequest, callIndex: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ModelServerOptions {
  responder?: Responder;
  /** Replies used in order (then the last one repeats), when no responder is given. */
  script?: ScriptedReply[];
  /** Added to every answer; a function gives a distribution. */
  latencyMs?: number | (() => number);
  /** More requests in flight than this → 429 with Retry-After. */
  concurrencyCap?: number;
  retryAfterSeconds?: number;
  models?: string[];
  /** Reject requests whose Authorization header is not `Bearer <apiKey>` (401). */
  apiKey?: string;
  /** `/v1/embeddings`: a vector per input text; absent → the endpoint answers 404 like servers without embeddings. */
  embed?: (text: string) => number[];
  /** How `/v1/batches` behaves (defaults: one poll `in_progress`, then `completed` with every line answered). */
  batch?: BatchServerOptions;
}

export interface BatchLineError {
  code: string;
  message: string;
}

export interface BatchServerOptions {
  /** Polls of `GET /v1/batches/{id}` that still see the batch `in_progress` before it ends (default 1). */
  pollsUntilDone?: number;
  /** A line this returns an error for goes to the error file with `response: null` (the responder is not asked). */
  failLine?: (customId: string, request: ChatRequest) => BatchLineError | undefined;
  /** The batch ends `failed` with these errors (no line runs), or `expired` after answering only its first lines. */
  end?:
    { status: 'failed'; errors: Array<BatchLineError & { line?: number }> } | { status: 'expired'; answered: number };
  /** Rewrites an output line before it is stored: malformed lines, answers for ids never sent. */
  mangleOutput?: (line: string, customId: string) => string;
  /** The first polls answer these HTTP statuses instead of the batch (transient failures a client should retry). */
  failPolls?: number[];
}

export interface UploadedFile {
  id: string;
  filename: string;
  purpose: string;
  text: string;
  /** The non-empty JSONL lines, as sent. */
  lines: string[];
}

export interface BatchRecords {
  /** Every `POST /v1/files`, in order. */
  uploads: UploadedFile[];
  created: number;
  polls: number;
  cancelled: number;
}

export interface ModelServer {
  /** Base URL as the openai client expects it, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  /** Chat requests the responder saw, synchronous and batch lines alike. */
  requests: ChatRequest[];
  /** Synchronous `/v1/chat/completions` calls only. */
  stats: { inFlight: number; maxInFlight: number; rejected429: number; completed: number };
  batches: BatchRecords;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

const errorBody = (message: string, type: string, code?: string) =>
  JSON.stringify({ error: { message, type, ...(code ? { code } : {}) } });

/** The body of a successful chat completion, shared by the synchronous endpoint and batch lines. */
function completionBody(request: ChatRequest, reply: ScriptedReply, index: number) {
  const content = reply.content ?? '';
  const prompt = request.messages
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
  const usage = reply.usage ?? { prompt_tokens: roughTokens(prompt), completion_tokens: roughTokens(content) };
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content },
        finish_reason: reply.finishReason ?? 'stop',
        logprobs: null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** The fields of a multipart/form-data body (enough for what the openai SDK sends). */
function parseMultipart(body: Buffer, contentType: string | undefined) {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const fields = new Map<string, { filename?: string; data: Buffer }>();
  if (!match) return fields;
  const delimiter = Buffer.from(`--${match[1] ?? match[2]}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const after = start + delimiter.length;
    if (body.subarray(after, after + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, after);
    if (next < 0) break;
    // each part: CRLF, headers, blank line, data, CRLF before the next delimiter
    const part = body.subarray(after + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const name = /;\s*name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /;\s*filename="([^"]*)"/i.exec(headers)?.[1];
      if (name !== undefined) fields.set(name, { filename, data: part.subarray(headerEnd + 4) });
    }
    start = next;
  }
  return fields;
}

interface StoredFile {
  object: { id: string; object: 'file'; bytes: number; created_at: number; filename: string; purpose: string };
  data: Buffer;
}

interface InputLine {
  custom_id: string;
  body: ChatRequest;
}

interface BatchState {
  object: Record<string, unknown> & { id: string; status: string };
  lines: InputLine[];
  validationErrors: Array<BatchLineError & { line: number }>;
  polls: number;
  finishing?: Promise<void>;
}

const TERMINAL = new Set(['completed', 'failed', 'expired', 'cancelled']);

/** Input lines as OpenAI checks them before a batch runs; any error fails the whole batch. */
function validateInput(text: string) {
  const lines: InputLine[] = [];
  const errors: Array<BatchLineError & { line: number }> = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      errors.push({ code: 'invalid_json_line', message: `This line is not parseable as valid JSON.`, line });
      return;
    }
    const entry = parsed as Partial<InputLine> & { method?: unknown; url?: unknown };
    if (typeof entry !== 'object' || entry === null || typeof entry.custom_id !== 'string' || !entry.body) {
      errors.push({ code: 'missing_required_parameter', message: 'custom_id and body are required.', line });
    } else if (entry.method !== 'POST' || entry.url !== '/v1/chat/completions') {
      errors.push({ code: 'invalid_url', message: 'The URL provided for this request does not match.', line });
    } else if (seen.has(entry.custom_id)) {
      errors.push({ code: 'duplicate_custom_id', message: 'The custom_id for this request is a duplicate.', line });
    } else {
      seen.add(entry.custom_id);
      lines.push({ custom_id: entry.custom_id, body: entry.body });
    }
  });
  if (lines.length === 0 && errors.length === 0)
    errors.push({ code: 'empty_file', message: 'The input file has no requests.', line: 0 });
  return { lines, errors };
}

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const requests: ChatRequest[] = [];
  const stats = { inFlight: 0, maxInFlight: 0, rejected429: 0, completed: 0 };
  const batchRecords: BatchRecords = { uploads: [], created: 0, polls: 0, cancelled: 0 };
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, BatchState>();
  const failPolls = [...(options.batch?.failPolls ?? [])];
  const hanging = new Set<ServerResponse>();
  let calls = 0;
  let ids = 0;
  const responder: Responder =
    options.responder ??
    ((_request, index) => {
      const script = options.script ?? [{ content: '{}' }];
      return script[Math.min(index, script.length - 1)];
    });

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

  const authorized = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!options.apiKey || req.headers.authorization === `Bearer ${options.apiKey}`) return true;
    send(res, 401, errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'));
    return false;
  };

  const handleChat = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (!authorized(req, res)) return;
    let request: ChatRequest;
    try {
      request = JSON.parse(body) as ChatRequest;
    } catch {
      send(res, 400, errorBody('invalid JSON body', 'invalid_request_error'));
      return;
    }
    if (options.concurrencyCap !== undefined && stats.inFlight >= options.concurrencyCap) {
      stats.rejected429++;
      send(res, 429, errorBody('Rate limit reached: too many concurrent requests', 'rate_limit_error'), {
        'retry-after': String(options.retryAfterSeconds ?? 1),
      });
      return;
    }
    const index = calls++;
    requests.push(request);
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      const reply = await responder(request, index);
      const latency = typeof options.latencyMs === 'function' ? options.latencyMs() : (options.latencyMs ?? 0);
      await sleep(latency + (reply.delayMs ?? 0));
      if (reply.hang) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (reply.raw !== undefined) {
        send(res, reply.status ?? 200, reply.raw, reply.headers);
        return;
      }
      if (reply.status && reply.status >= 400) {
        send(res, reply.status, errorBody(`scripted ${reply.status}`, 'server_error'), reply.headers);
        return;
      }
      send(res, 200, JSON.stringify(completionBody(request, reply, index)), reply.headers);
    } finally {
      stats.inFlight--;
      stats.completed++;
    }
  };

  const storeFile = (filename: string, purpose: string, data: Buffer): StoredFile => {
    const file: StoredFile = {
      object: {
        id: `file-${++ids}`,
        object: 'file',
        bytes: data.length,
        created_at: Math.floor(Date.now() / 1000),
        filename,
        purpose,
      },
      data,
    };
    files.set(file.object.id, file);
    return file;
  };

  const handleUpload = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const fields = parseMultipart(raw, req.headers['content-type']);
    const purpose = fields.get('purpose')?.data.toString('utf8');
    const file = fields.get('file');
    if (!purpose || !file) {
      send(res, 400, errorBody('purpose and file are required', 'invalid_request_error'));
      return;
    }
    const stored = storeFile(file.filename ?? 'upload', purpose, file.data);
    const text = file.data.toString('utf8');
    batchRecords.uploads.push({
      id: stored.object.id,
      filename: stored.object.filename,
      purpose,
      text,
      lines: text.split('\n').filter((line) => line.trim() !== ''),
    });
    send(res, 200, JSON.stringify({ ...stored.object, status: 'processed' }));
  };

  const handleCreateBatch = (res: ServerResponse, body: string) => {
    let params: { input_file_id?: unknown; endpoint?: unknown; completion_window?: unknown; metadata?: unknown };
    try {
      params = JSON.parse(body) as typeof params;
    } catch {
      send(res, 400, errorBody('invalid JSON body', 'invalid_request_error'));
      return;
    }
    const input = typeof params.input_file_id === 'string' ? files.get(params.input_file_id) : undefined;
    if (!input) {
      send(res, 404, errorBody(`No such File object: ${String(params.input_file_id)}`, 'invalid_request_error'));
      return;
    }
    if (input.object.purpose !== 'batch' || params.endpoint !== '/v1/chat/completions') {
      send(
        res,
        400,
        errorBody(
          'the input file must have purpose batch and the endpoint be /v1/chat/completions',
          'invalid_request_error',
        ),
      );
      return;
    }
    if (params.completion_window !== '24h') {
      send(res, 400, errorBody('completion_window must be 24h', 'invalid_request_error'));
      return;
    }
    const { lines, errors } = validateInput(input.data.toString('utf8'));
    const id = `batch_${++ids}`;
    batchRecords.created++;
    const state: BatchState = {
      object: {
        id,
        object: 'batch',
        endpoint: params.endpoint,
        input_file_id: input.object.id,
        completion_window: '24h',
        status: 'validating',
        output_file_id: null,
        error_file_id: null,
        errors: null,
        created_at: Math.floor(Date.now() / 1000),
        metadata: params.metadata ?? null,
        request_counts: { total: 0, completed: 0, failed: 0 },
      },
      lines,
      validationErrors: errors,
      polls: 0,
    };
    batches.set(id, state);
    send(res, 200, JSON.stringify(state.object));
  };

  /** Runs the lines (all, or the first ones of an expiring batch) and writes the output and error files. */
  const finish = async (state: BatchState) => {
    const end = options.batch?.end;
    const now = Math.floor(Date.now() / 1000);
    if (state.validationErrors.length > 0 || end?.status === 'failed') {
      const data =
        state.validationErrors.length > 0 ? state.validationErrors : (end as { errors: BatchLineError[] }).errors;
      Object.assign(state.object, { status: 'failed', failed_at: now, errors: { object: 'list', data } });
      return;
    }
    const cancelled = state.object.status === 'cancelling';
    const limit = cancelled ? 0 : end?.status === 'expired' ? end.answered : state.lines.length;
    const output: string[] = [];
    const failures: string[] = [];
    for (const line of state.lines.slice(0, limit)) {
      const id = `batch_req_${++ids}`;
      const failure = options.batch?.failLine?.(line.custom_id, line.body);
      if (failure) {
        failures.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error: failure }));
        continue;
      }
      if (!Array.isArray(line.body.messages)) {
        const body = JSON.parse(errorBody('messages is required', 'invalid_request_error')) as unknown;
        failures.push(
          JSON.stringify({
            id,
            custom_id: line.custom_id,
            response: { status_code: 400, request_id: id, body },
            error: null,
          }),
        );
        continue;
      }
      const index = calls++;
      requests.push(line.body);
      const reply = await responder(line.body, index);
      if (reply.hang) continue; // never answered: no line in either file
      let status = 200;
      let body: unknown;
      if (reply.raw !== undefined) {
        status = reply.status ?? 200;
        try {
          body = JSON.parse(reply.raw);
        } catch {
          body = reply.raw;
        }
      } else if (reply.status && reply.status >= 400) {
        status = reply.status;
        body = JSON.parse(errorBody(`scripted ${reply.status}`, 'server_error')) as unknown;
      } else {
        body = completionBody(line.body, reply, index);
      }
      const text = JSON.stringify({
        id,
        custom_id: line.custom_id,
        response: { status_code: status, request_id: `req_${index}`, body },
        error: null,
      });
      if (status === 200) output.push(options.batch?.mangleOutput?.(text, line.custom_id) ?? text);
      else failures.push(text);
    }
    const write = (lines: string[], kind: string) => {
      if (lines.length === 0) return null;
      const data = Buffer.from(lines.map((l) => `${l}\n`).join(''));
      return storeFile(`${state.object.id}_${kind}.jsonl`, 'batch_output', data).object.id;
    };
    const finalStatus = cancelled ? 'cancelled' : end?.status === 'expired' ? 'expired' : 'completed';
    Object.assign(state.object, {
      status: finalStatus,
      [`${finalStatus}_at`]: now,
      output_file_id: write(output, 'output'),
      error_file_id: write(failures, 'error'),
      request_counts: { total: state.lines.length, completed: output.length, failed: failures.length },
    });
  };

  const handlePoll = async (res: ServerResponse, state: BatchState) => {
    batchRecords.polls++;
    const failure = failPolls.shift();
    if (failure !== undefined) {
      send(res, failure, errorBody(`scripted ${failure}`, failure === 429 ? 'rate_limit_error' : 'server_error'));
      return;
    }
    if (!TERMINAL.has(state.object.status)) {
      const waiting =
        state.object.status !== 'cancelling' &&
        state.validationErrors.length === 0 &&
        options.batch?.end?.status !== 'failed';
      if (waiting && ++state.polls <= (options.batch?.pollsUntilDone ?? 1)) {
        Object.assign(state.object, {
          status: 'in_progress',
          in_progress_at: Math.floor(Date.now() / 1000),
          request_counts: { total: state.lines.length, completed: 0, failed: 0 },
        });
      } else {
        state.finishing ??= finish(state);
        await state.finishing;
      }
    }
    send(res, 200, JSON.stringify(state.object));
  };

  const handleCancel = (res: ServerResponse, state: BatchState) => {
    if (TERMINAL.has(state.object.status)) {
      send(res, 409, errorBody(`Cannot cancel a batch with status ${state.object.status}.`, 'invalid_request_error'));
      return;
    }
    batchRecords.cancelled++;
    Object.assign(state.object, { status: 'cancelling', cancelling_at: Math.floor(Date.now() / 1000) });
    send(res, 200, JSON.stringify(state.object));
  };

  /** `/v1/files…` and `/v1/batches…`; false when the path is neither. */
  const routeBatchApi = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: Buffer,
  ): Promise<boolean> => {
    const file = /^\/v1\/files(?:\/([^/]+)(\/content)?)?$/.exec(path);
    const batch = /^\/v1\/batches(?:\/([^/]+)(\/cancel)?)?$/.exec(path);
    if (!file && !batch) return false;
    if (!authorized(req, res)) return true;
    const notFound = (what: string) => send(res, 404, errorBody(`No such ${what}: ${path}`, 'invalid_request_error'));
    if (file) {
      const [, id, content] = file;
      const stored = id ? files.get(decodeURIComponent(id)) : undefined;
      if (req.method === 'POST' && !id) handleUpload(req, res, raw);
      else if (req.method === 'GET' && stored && content) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(stored.data);
      } else if (req.method === 'GET' && stored) send(res, 200, JSON.stringify(stored.object));
      else notFound('File object');
      return true;
    }
    const [, id, cancel] = batch!;
    const state = id ? batches.get(decodeURIComponent(id)) : undefined;
    if (req.method === 'POST' && !id) handleCreateBatch(res, raw.toString('utf8'));
    else if (req.method === 'GET' && state && !cancel) await handlePoll(res, state);
    else if (req.method === 'POST' && state && cancel) handleCancel(res, state);
    else notFound('batch');
    return true;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/v1/models') {
        send(
          res,
          200,
          JSON.stringify({
            object: 'list',
            data: (options.models ?? ['test-model']).map((id) => ({
              id,
              object: 'model',
              created: 0,
              owned_by: 'combee-tests',
            })),
          }),
        );
      } else if (req.method === 'POST' && path === '/v1/embeddings' && options.embed) {
        const request = JSON.parse(body) as { input: string | string[]; model: string };
        const inputs = Array.isArray(request.input) ? request.input : [request.input];
        send(
          res,
          200,
          JSON.stringify({
            object: 'list',
            model: request.model,
            data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: options.embed!(text) })),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        );
      } else if (req.method === 'POST' && path === '/v1/chat/completions') {
        handleChat(req, res, body).catch((error: Error) =>
          send(res, 500, JSON.stringify({ error: { message: error.message } })),
        );
      } else {
        routeBatchApi(req, res, path, raw)
          .then((routed) => {
            if (!routed) send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
          })
          .catch((error: Error) => send(res, 500, JSON.stringify({ error: { message: error.message } })));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stats,
    batches: batchRecords,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
