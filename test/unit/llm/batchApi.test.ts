import assert from 'node:assert/strict';
import OpenAI, { toFile } from 'openai';
import { BatchApiClient, type BatchApiOptions, type BatchLine } from '../../../src/core/llm/batchApi';
import { EndpointRefusedError } from '../../../src/core/llm/endpoint';
import {
  startModelServer,
  type ModelServer,
  type ModelServerOptions,
  type Responder,
} from '../../../testing/modelServer';

// Built at run time so no scanner mistakes the fixture for a leaked token.
const SECRET = 'ghp_' + 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';

const line = (customId: string, text = `question ${customId}`): BatchLine => ({
  customId,
  body: { model: 'test-model', messages: [{ role: 'user', content: text }], max_tokens: 100 },
});

/** Each answer names the question it answers, so tests can match answers to requests. */
const echo: Responder = (request) => ({
  content: JSON.stringify({ answered: request.messages[0].content.slice(0, 40) }),
  usage: { prompt_tokens: 11, completion_tokens: 7 },
});

describe('Batch API transport (against a loopback server)', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const setup = async (serverOptions: ModelServerOptions = {}, clientOptions: Partial<BatchApiOptions> = {}) => {
    server = await startModelServer({ responder: echo, apiKey: 'sk-test', ...serverOptions });
    return new BatchApiClient({ baseUrl: server.url, apiKey: 'sk-test', backoffBaseMs: 5, ...clientOptions });
  };

  it('submits redacted JSONL, polls to completion and returns every answer with usage', async () => {
    const client = await setup({ batch: { pollsUntilDone: 2 } });
    const lines = [line('a'), line('b', `my token is ${SECRET} please`), line('c')];
    lines[2].body.messages = [
      { role: 'system', content: 'system text' },
      { role: 'user', content: [{ type: 'text', text: `part ${SECRET}` }] },
    ];
    const { batchId, inputFileId } = await client.submit(lines, { run: 'r1' });

    const upload = server!.batches.uploads[0];
    assert.equal(upload.id, inputFileId);
    assert.equal(upload.purpose, 'batch');
    assert.ok(!upload.text.includes(SECRET), 'the secret left unredacted');
    assert.equal(upload.lines.length, 3);
    const sent = upload.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      sent.map((l) => [l.custom_id, l.method, l.url]),
      [
        ['a', 'POST', '/v1/chat/completions'],
        ['b', 'POST', '/v1/chat/completions'],
        ['c', 'POST', '/v1/chat/completions'],
      ],
    );
    const bodyB = sent[1].body as { model: string; max_tokens: number; messages: Array<{ content: string }> };
    assert.equal(bodyB.model, 'test-model');
    assert.equal(bodyB.max_tokens, 100);
    assert.match(bodyB.messages[0].content, /^my token is \[REDACTED:[a-z-]+\] please$/);
    assert.match(upload.text, /part \[REDACTED:[a-z-]+\]/);

    const seen: string[] = [];
    const final = await client.waitFor(batchId, { pollMs: 5, onPoll: (s) => seen.push(s.status) });
    assert.deepEqual(seen, ['in_progress', 'in_progress', 'completed']);
    assert.deepEqual(final.counts, { total: 3, completed: 3, failed: 0 });
    assert.ok(final.outputFileId);
    assert.equal(final.errorFileId, undefined);

    const results = await client.results(final);
    assert.deepEqual([...results.answers.keys()].sort(), ['a', 'b', 'c']);
    const a = results.answers.get('a')!;
    assert.equal(a.content, JSON.stringify({ answered: 'question a' }));
    assert.equal(a.finishReason, 'stop');
    assert.deepEqual(a.usage, { inputTokens: 11, outputTokens: 7 });
    assert.ok(!results.answers.get('b')!.content.includes(SECRET), 'the model never saw the secret');
    assert.equal(results.failed.size, 0);
    assert.deepEqual(results.warnings, []);
  });

  it('reports answers and failed lines together, with redacted reasons', async () => {
    const client = await setup({
      responder: (request, index) =>
        request.messages[0].content.includes('c') ? { status: 500 } : echo(request, index),
      batch: {
        failLine: (id) => (id === 'b' ? { code: 'server_error', message: `boom near ${SECRET}` } : undefined),
      },
    });
    const { batchId } = await client.submit([line('a'), line('b'), line('c')]);
    const final = await client.waitFor(batchId, { pollMs: 5 });
    assert.equal(final.status, 'completed');
    assert.deepEqual(final.counts, { total: 3, completed: 1, failed: 2 });
    const results = await client.results(final);
    assert.deepEqual([...results.answers.keys()], ['a']);
    assert.match(results.failed.get('b')!, /^server_error: boom near \[REDACTED:[a-z-]+\]$/);
    assert.match(results.failed.get('c')!, /^HTTP 500: scripted 500$/);
  });

  it('an expired batch: the answered part is kept, the rest failed as unanswered', async () => {
    const client = await setup({ batch: { end: { status: 'expired', answered: 2 } } });
    const { batchId } = await client.submit(['a', 'b', 'c', 'd'].map((id) => line(id)));
    const final = await client.waitFor(batchId, { pollMs: 5 });
    assert.equal(final.status, 'expired');
    const results = await client.results(final);
    assert.deepEqual([...results.answers.keys()], ['a', 'b']);
    assert.deepEqual(Object.fromEntries(results.failed), {
      c: 'no answer (batch expired)',
      d: 'no answer (batch expired)',
    });
  });

  it('a client without memory of the batch reads the submitted ids from its input file', async () => {
    const first = await setup({ batch: { end: { status: 'expired', answered: 1 } } });
    const { batchId } = await first.submit([line('a'), line('b')]);
    const later = new BatchApiClient({ baseUrl: server!.url, apiKey: 'sk-test' });
    const results = await later.results(await later.waitFor(batchId, { pollMs: 5 }));
    assert.deepEqual([...results.answers.keys()], ['a']);
    assert.equal(results.failed.get('b'), 'no answer (batch expired)');
  });

  it('a failed batch surfaces its errors, and every request fails with them', async () => {
    const client = await setup({
      batch: { end: { status: 'failed', errors: [{ code: 'token_limit_exceeded', message: 'Enqueued limit' }] } },
    });
    const { batchId } = await client.submit([line('a'), line('b')]);
    const final = await client.waitFor(batchId, { pollMs: 5 });
    assert.equal(final.status, 'failed');
    assert.deepEqual(final.errors, ['token_limit_exceeded: Enqueued limit']);
    const results = await client.results(final);
    assert.equal(results.answers.size, 0);
    assert.equal(results.failed.get('a'), 'batch failed: token_limit_exceeded: Enqueued limit');
  });

  it('the server fails a batch whose input has a line that is not JSON (validation error, with the line)', async () => {
    const client = await setup();
    const sdk = new OpenAI({ baseURL: server!.url, apiKey: 'sk-test', maxRetries: 0 });
    const good = JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: line('a').body });
    const file = await sdk.files.create({
      file: await toFile(Buffer.from(`${good}\n{"custom_id": "b", oops\n`), 'bad.jsonl'),
      purpose: 'batch',
    });
    const batch = await sdk.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    assert.equal(batch.status, 'validating');
    const final = await client.waitFor(batch.id, { pollMs: 5 });
    assert.equal(final.status, 'failed');
    assert.equal(final.errors.length, 1);
    assert.match(final.errors[0], /^invalid_json_line: .+ \(line 2\)$/);
    const results = await client.results(final, ['a']);
    assert.match(results.failed.get('a')!, /^batch failed: invalid_json_line/);
    assert.equal(server!.requests.length, 0, 'no line of a failed batch ran');
  });

  it('aborting waitFor stops polling; cancel ends the batch cancelled', async () => {
    const client = await setup({ batch: { pollsUntilDone: 1_000 } });
    const { batchId } = await client.submit([line('a')]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 60);
    await assert.rejects(client.waitFor(batchId, { pollMs: 10, signal: controller.signal }), { name: 'AbortError' });
    const polls = server!.batches.polls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(server!.batches.polls, polls, 'no poll after the abort');

    assert.equal((await client.cancel(batchId)).status, 'cancelling');
    const final = await client.waitFor(batchId, { pollMs: 5 });
    assert.equal(final.status, 'cancelled');
    assert.equal((await client.results(final)).failed.get('a'), 'no answer (batch cancelled)');
    await assert.rejects(client.cancel(batchId), /cancelling the batch failed: HTTP 409/);
  });

  it('a wrong key is a clear 401 error, and nothing is uploaded', async () => {
    const client = await setup({}, { apiKey: 'sk-wrong' });
    await assert.rejects(client.submit([line('a')]), {
      name: 'BatchApiError',
      message: 'uploading the batch input failed: the endpoint rejected the API key (401)',
    });
    await assert.rejects(client.status('batch_1'), /the endpoint rejected the API key \(401\)/);
    assert.equal(server!.batches.uploads.length, 0);
    assert.equal(server!.batches.polls, 0, 'a 401 is not retried');
  });

  it('counts malformed output lines and ignores answers for requests never sent', async () => {
    const client = await setup({
      batch: {
        mangleOutput: (text, id) =>
          id === 'b' ? '{"custom_id": "b", "respo' : id === 'c' ? `${text}\n${text.replace('"c"', '"zzz"')}` : text,
      },
    });
    const { batchId } = await client.submit([line('a'), line('b'), line('c')]);
    const results = await client.results(await client.waitFor(batchId, { pollMs: 5 }));
    assert.deepEqual([...results.answers.keys()].sort(), ['a', 'c']);
    assert.equal(results.failed.get('b'), 'no answer (batch completed)');
    assert.deepEqual(results.warnings, ['1 malformed result line skipped', '1 result for requests never sent ignored']);
  });

  it('keeps an answer as text, whatever it looks like', async () => {
    const hostile = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}';
    const client = await setup({ responder: () => ({ content: hostile }) });
    const { batchId } = await client.submit([line('a')]);
    const results = await client.results(await client.waitFor(batchId, { pollMs: 5 }));
    assert.equal(results.answers.get('a')!.content, hostile);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('polling retries transient 5xx and 429 with backoff, then gives up with the last error', async () => {
    const client = await setup({ batch: { failPolls: [500, 429, 503] } });
    const { batchId } = await client.submit([line('a')]);
    assert.equal((await client.waitFor(batchId, { pollMs: 5 })).status, 'completed');
    assert.equal(server!.batches.polls, 5, 'three failures, in_progress, completed');
    await server!.close();

    const stubborn = await setup({ batch: { failPolls: [502, 502, 502] } }, { maxRetries: 1 });
    const second = await stubborn.submit([line('a')]);
    await assert.rejects(stubborn.waitFor(second.batchId, { pollMs: 5 }), /reading the batch status failed: HTTP 502/);
    assert.equal(server!.batches.polls, 2);
  });

  it('doubles the poll interval up to the cap', async () => {
    const client = await setup({ batch: { pollsUntilDone: 3 } });
    const { batchId } = await client.submit([line('a')]);
    const at: number[] = [];
    await client.waitFor(batchId, { pollMs: 20, maxPollMs: 45, onPoll: () => at.push(performance.now()) });
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    assert.equal(gaps.length, 3);
    assert.ok(gaps[0] >= 18 && gaps[1] >= 38 && gaps[2] >= 43, `gaps ${gaps.map(Math.round).join(', ')}`);
    assert.ok(gaps[2] < gaps[1] + 40, 'capped');
  });

  it('refuses what cannot be sent safely before anything leaves', async () => {
    assert.throws(
      () => new BatchApiClient({ baseUrl: 'http://192.168.1.20:8000/v1', apiKey: 'k' }),
      EndpointRefusedError,
    );
    assert.doesNotThrow(
      () => new BatchApiClient({ baseUrl: 'http://192.168.1.20:8000/v1', apiKey: 'k', allowInsecureHttp: true }),
    );
    const client = await setup();
    const image = line('img');
    image.body.messages = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:...' } }] }];
    await assert.rejects(client.submit([image]), /only carry text content/);
    await assert.rejects(client.submit([line('a'), line('a')]), /unique/);
    await assert.rejects(client.submit([]), /at least one request/);
    assert.equal(server!.batches.uploads.length, 0);
  });
});
