import assert from 'node:assert/strict';
import { learn } from '../../../src/core/learn/run';
import type { Reflection, Reflector, RoleResult } from '../../../src/core/learn/types';
import { OfflineAggregator } from '../../../src/core/llm/offline/aggregator';
import { openAiRoles } from '../../../src/core/llm/providers';
import { parsePlaybook, serializePlaybook } from '../../../src/core/playbook/markdown';
import type { Trace } from '../../../src/core/trace/model';
import { startModelServer, type ModelServer } from '../../../testing/modelServer';
import { makeTrace, user } from '../../../testing/traces';

// A stand-in embedding: one axis per topic, so differently worded sentences about one topic are the same vector.
const TOPICS = ['db:generate', 'tz=utc', 'lint'];
const topicVector = (text: string): number[] => [...TOPICS.map((t) => (text.toLowerCase().includes(t) ? 1 : 0)), 0.01];

class Says implements Reflector {
  constructor(private readonly lessons: Record<string, string>) {}
  async reflect(trace: Trace): Promise<RoleResult<Reflection>> {
    const content = this.lessons[trace.id];
    return {
      value: {
        traceId: trace.id,
        lessons: [{ section: 'Build and test', content, kind: 'rule', evidence: { traceId: trace.id, steps: [0] } }],
        tags: [],
      },
      usage: { inputTokens: 0, outputTokens: 0, latencyMs: 0 },
      warnings: [],
    };
  }
}

describe('semantic duplicate detection (embeddings)', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const playbook = parsePlaybook(
    '## Build and test\n[bat-00001] helpful=2 harmful=0 :: Run `pnpm db:generate` before `pnpm test`.\n',
  );
  const traces = [makeTrace('a', [user('x')]), makeTrace('b', [user('y')]), makeTrace('c', [user('z')])];
  const lessons = {
    a: 'Before the test suite, always execute `pnpm db:generate` to build the Prisma client.',
    b: 'Set TZ=UTC when running vitest.',
    c: 'Vitest runs need the environment variable TZ=UTC.',
  };

  it('drops rules that repeat an existing one or each other in other words, keeping the first with both supports', async () => {
    server = await startModelServer({ embed: topicVector });
    const { embed, info } = openAiRoles({ baseUrl: server.url, apiKey: 'k', model: 'm' });
    const result = await learn({
      traces,
      playbook,
      reflector: new Says(lessons),
      aggregator: new OfflineAggregator(),
      provider: info,
      workspace: '/ws',
      embed,
    });
    const text = serializePlaybook(result.playbook);
    assert.equal(text.match(/db:generate/g)?.length, 1, text);
    assert.equal(text.match(/TZ=UTC/g)?.length, 1, text);
    const reasons = result.applied.filter((a) => a.status === 'skipped').map((a) => a.reason);
    assert.deepEqual(reasons.sort(), ['same meaning as another new rule of this batch', 'same meaning as bat-00001']);
    const tz = result.applied.find(
      (a) => a.status === 'applied' && 'content' in a.op && a.op.content.includes('TZ=UTC'),
    );
    assert.deepEqual(tz?.op.support.map((s) => s.traceId).sort(), ['b', 'c']);
  });

  it('falls back to lexical detection, with one warning, when the endpoint has no embeddings', async () => {
    server = await startModelServer({});
    const { embed, info } = openAiRoles({ baseUrl: server.url, apiKey: 'k', model: 'm' });
    const result = await learn({
      traces,
      playbook,
      reflector: new Says(lessons),
      aggregator: new OfflineAggregator(),
      provider: info,
      workspace: '/ws',
      embed,
      batchSize: 1,
    });
    assert.equal(result.record.status, 'completed');
    assert.equal(result.record.warnings.filter((w) => /embeddings unavailable/.test(w)).length, 1);
    assert.equal(
      serializePlaybook(result.playbook).match(/TZ=UTC/g)?.length,
      2,
      'worded differently, so lexically distinct',
    );
  });
});
