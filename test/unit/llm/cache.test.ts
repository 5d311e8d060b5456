import assert from 'node:assert/strict';
import { join } from 'node:path';
import { z } from 'zod';
import { CachingLlmClient, CallCache } from '../../../src/core/llm/cache';
import { LlmAggregator, LlmReflector } from '../../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../../src/core/llm/openaiClient';
import { learn } from '../../../src/core/learn/run';
import { emptyPlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import { learningCorpus, plantedLessons } from '../../../bench/learn/corpus';
import { simulatedResponder } from '../../../bench/learn/simulation';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { tempDir } from '../../../testing/tmp';

describe('cache of model calls', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers a repeated call from disk at no cost, and revalidates cached values', async () => {
    server = await startModelServer({ script: [{ content: '{"n": 1}' }] });
    const cache = new CallCache(join(tempDir('combee-cache-'), 'cache'));
    const client = new CachingLlmClient(
      new OpenAiCompatibleClient({ baseUrl: server.url, apiKey: 'k', model: 'm' }),
      cache,
      server.url,
    );
    const request = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      schema: z.object({ n: z.number() }),
      schemaName: 'n',
    };
    assert.equal((await client.completeJson(request)).value.n, 1);
    const again = await client.completeJson(request);
    assert.equal(again.value.n, 1);
    assert.equal(again.usage.inputTokens, 0);
    assert.equal(server.requests.length, 1);
    assert.deepEqual(cache.stats, { hits: 1, misses: 1 });
    // a different schema is a different key, and a cached value that no longer validates is not used
    await assert.rejects(client.completeJson({ ...request, schema: z.object({ n: z.string() }) }));
  });

  it('a resumed run after a cancel re-sends only the calls that were not finished', async () => {
    server = await startModelServer({ responder: simulatedResponder });
    const cache = new CallCache(join(tempDir('combee-cache-'), 'cache'));
    const make = () => {
      const client = new CachingLlmClient(
        new OpenAiCompatibleClient({ baseUrl: server!.url, apiKey: 'k', model: 'sim' }),
        cache,
        server!.url,
      );
      return { reflector: new LlmReflector(client), aggregator: new LlmAggregator(client), provider: client.info };
    };
    const traces = learningCorpus(12, plantedLessons(12), 1, 5);
    const controller = new AbortController();
    const first = await learn({
      ...make(),
      traces,
      playbook: emptyPlaybook(),
      workspace: '/ws',
      batchSize: 12,
      seed: 1,
      signal: controller.signal,
      concurrency: 2,
      onProgress: () => {
        if (server!.requests.length >= 5) controller.abort();
      },
    });
    assert.equal(first.record.status, 'cancelled');
    const sentBefore = server.requests.length;
    const resumed = await learn({
      ...make(),
      traces,
      playbook: emptyPlaybook(),
      workspace: '/ws',
      batchSize: 12,
      seed: 1,
      concurrency: 2,
    });
    assert.equal(resumed.record.status, 'completed');
    const total = 12 + 3 + 1;
    assert.ok(
      server.requests.length - sentBefore < total,
      `resumed run sent ${server.requests.length - sentBefore} of ${total} calls`,
    );
    assert.ok(cache.stats.hits >= 1);
    assert.match(serializePlaybook(resumed.playbook), /LESSON-001/);
  });

  it('stays under its size cap, dropping the least recently used entries', async () => {
    const cache = new CallCache(join(tempDir('combee-cache-'), 'cache'), 4000);
    for (let i = 0; i < 20; i++)
      await cache.put(`${String(i).padStart(2, '0')}${'a'.repeat(62)}`, { text: 'x'.repeat(400) });
    await cache.trim();
    const { bytes, entries } = await cache.size();
    assert.ok(bytes <= 4000 && entries > 0, `${entries} entries, ${bytes} bytes`);
    await cache.clear();
    assert.equal((await cache.size()).entries, 0);
  });
});
