import assert from 'node:assert/strict';
import { z } from 'zod';
import { LlmOutputError } from '../../../src/core/llm/client';
import { OpenAiCompatibleClient, type OpenAiClientOptions } from '../../../src/core/llm/openaiClient';
import { startModelServer, type ModelServer, type ModelServerOptions } from '../../../testing/modelServer';

const Answer = z.object({ rule: z.string(), confidence: z.number() });
const good = JSON.stringify({ rule: 'Run pnpm db:generate first', confidence: 0.9 });
const ask = (client: OpenAiCompatibleClient, signal?: AbortSignal) =>
  client.completeJson({
    messages: [{ role: 'user', content: 'give me a rule' }],
    schema: Answer,
    schemaName: 'answer',
    signal,
  });

describe('OpenAI-compatible client (against a loopback server)', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const setup = async (serverOptions: ModelServerOptions, clientOptions: Partial<OpenAiClientOptions> = {}) => {
    server = await startModelServer(serverOptions);
    return new OpenAiCompatibleClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      model: 'test-model',
      backoffBaseMs: 10,
      ...clientOptions,
    });
  };

  it('asks for a JSON schema derived from the zod schema and returns the validated value with usage', async () => {
    const client = await setup(
      { script: [{ content: good, usage: { prompt_tokens: 120, completion_tokens: 30 } }] },
      { prices: { input: 1, output: 4 } },
    );
    const result = await ask(client);
    assert.deepEqual(result.value, { rule: 'Run pnpm db:generate first', confidence: 0.9 });
    assert.equal(result.usage.inputTokens, 120);
    assert.equal(result.usage.outputTokens, 30);
    assert.ok(Math.abs((result.usage.costUsd ?? 0) - (120 + 30 * 4) / 1e6) < 1e-12);
    const format = server!.requests[0].response_format;
    assert.equal(format?.type, 'json_schema');
    assert.deepEqual((format?.json_schema?.schema as { required?: string[] }).required?.sort(), ['confidence', 'rule']);
    assert.deepEqual(result.warnings, []);
  });

  it('retries a 429, honouring Retry-After, and counts a warning', async () => {
    const client = await setup({ script: [{ status: 429, headers: { 'retry-after': '0.2' } }, { content: good }] });
    const started = Date.now();
    const result = await ask(client);
    assert.ok(Date.now() - started >= 190, 'waited for Retry-After');
    assert.equal(result.value.confidence, 0.9);
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0], /rate limited \(429\); retry 1\/4/);
  });

  it('retries 500s with backoff and gives up after maxRetries with a clear error', async () => {
    const client = await setup({ script: [{ status: 500 }, { status: 503 }, { content: good }] });
    assert.equal((await ask(client)).warnings.length, 2);
    await server!.close();
    const failing = await setup({ script: [{ status: 500 }] }, { maxRetries: 2 });
    await assert.rejects(ask(failing), /HTTP 500/);
    assert.equal(server!.requests.length, 3);
  });

  it('keeps within the concurrency limit, so a capped server never answers 429', async () => {
    const client = await setup({ script: [{ content: good }], latencyMs: 30, concurrencyCap: 2 }, { concurrency: 2 });
    const results = await Promise.all(Array.from({ length: 10 }, () => ask(client)));
    assert.equal(results.length, 10);
    assert.equal(server!.stats.rejected429, 0);
    assert.equal(server!.stats.maxInFlight, 2);
  });

  it('recovers from a capped server that does answer 429s (more clients than the cap)', async () => {
    const client = await setup(
      { script: [{ content: good }], latencyMs: 40, concurrencyCap: 1, retryAfterSeconds: 0.05 },
      { concurrency: 4 },
    );
    const results = await Promise.all(Array.from({ length: 6 }, () => ask(client)));
    assert.equal(results.length, 6);
    assert.ok(server!.stats.rejected429 > 0);
  });

  it('times out a hung request and retries it', async () => {
    const client = await setup({ script: [{ hang: true }, { content: good }] }, { timeoutMs: 300 });
    const result = await ask(client);
    assert.match(result.warnings[0], /timed out/);
  });

  it('repairs malformed JSON once', async () => {
    const client = await setup({
      script: [{ content: '{"rule": "Run pnpm db:gen' }, { content: `Sure!\n\`\`\`json\n${good}\n\`\`\`` }],
    });
    const result = await ask(client);
    assert.equal(result.value.rule, 'Run pnpm db:generate first');
    assert.match(result.warnings[0], /invalid answer answer \(no JSON found/);
    const repair = server!.requests[1].messages;
    assert.equal(repair[repair.length - 2].role, 'assistant');
  });

  it('repairs a truncated answer (finish_reason length)', async () => {
    const client = await setup({
      script: [{ content: '{"rule": "x", "confid', finishReason: 'length' }, { content: good }],
    });
    assert.match((await ask(client)).warnings[0], /cut off/);
  });

  it('gives up with LlmOutputError when the repair is still schema-invalid', async () => {
    const client = await setup({
      script: [{ content: '{"rule": 3}' }, { content: '{"rule": "ok", "confidence": "high"}' }],
    });
    await assert.rejects(
      ask(client),
      (error: unknown) => error instanceof LlmOutputError && /confidence/.test(error.message),
    );
  });

  it('falls back to json_object, then to prompted JSON, when the endpoint rejects response_format', async () => {
    const client = await setup({
      responder: (request) =>
        request.response_format
          ? {
              status: 400,
              raw: JSON.stringify({
                error: { message: `response_format ${request.response_format.type} is not supported` },
              }),
            }
          : { content: good },
    });
    const result = await ask(client);
    assert.equal(result.value.confidence, 0.9);
    assert.deepEqual(
      server!.requests.map((r) => r.response_format?.type ?? 'none'),
      ['json_schema', 'json_object', 'none'],
    );
    assert.match(server!.requests[2].messages.at(-1)!.content, /matching this JSON schema/);
    await ask(client);
    assert.equal(server!.requests.at(-1)!.response_format, undefined, 'the fallback is remembered');
  });

  it('does not retry a rejected key and says so', async () => {
    const client = await setup({ apiKey: 'sk-right', script: [{ content: good }] });
    await assert.rejects(ask(client), /rejected the API key \(401\)/);
    assert.equal(server!.requests.length, 0);
  });

  it('cancels promptly: an aborted call rejects with an AbortError, including during a backoff wait', async () => {
    const client = await setup({ script: [{ status: 429, headers: { 'retry-after': '30' } }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await assert.rejects(ask(client, controller.signal), (error: Error) => error.name === 'AbortError');
    assert.ok(Date.now() - started < 2000);
  });

  it('lists the server models (the endpoint really speaks the protocol)', async () => {
    await setup({ models: ['m1', 'm2'] });
    const response = await fetch(`${server!.url}/models`);
    assert.deepEqual(
      ((await response.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id),
      ['m1', 'm2'],
    );
  });
});
