import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks: `/v1/chat/completions` and
 * `/v1/models`, scripted answers, latency, a concurrency cap answered with 429 + Retry-After, 500s, hangs,
 * malformed and truncated output. The client under test runs its real code path against it.
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
}

export interface ModelServer {
  /** Base URL as the openai client expects it, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: ChatRequest[];
  stats: { inFlight: number; maxInFlight: number; rejected429: number; completed: number };
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const requests: ChatRequest[] = [];
  const stats = { inFlight: 0, maxInFlight: 0, rejected429: 0, completed: 0 };
  const hanging = new Set<ServerResponse>();
  let calls = 0;
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

  const handleChat = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      send(
        res,
        401,
        JSON.stringify({
          error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
        }),
      );
      return;
    }
    let request: ChatRequest;
    try {
      request = JSON.parse(body) as ChatRequest;
    } catch {
      send(res, 400, JSON.stringify({ error: { message: 'invalid JSON body', type: 'invalid_request_error' } }));
      return;
    }
    if (options.concurrencyCap !== undefined && stats.inFlight >= options.concurrencyCap) {
      stats.rejected429++;
      send(
        res,
        429,
        JSON.stringify({
          error: { message: 'Rate limit reached: too many concurrent requests', type: 'rate_limit_error' },
        }),
        { 'retry-after': String(options.retryAfterSeconds ?? 1) },
      );
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
        send(
          res,
          reply.status,
          JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'server_error' } }),
          reply.headers,
        );
        return;
      }
      const content = reply.content ?? '';
      const prompt = request.messages
        .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n');
      const usage = reply.usage ?? { prompt_tokens: roughTokens(prompt), completion_tokens: roughTokens(content) };
      send(
        res,
        200,
        JSON.stringify({
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
        }),
        reply.headers,
      );
    } finally {
      stats.inFlight--;
      stats.completed++;
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
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
        send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
