import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { learn } from '../../../src/core/learn/run';
import { LlmAggregator, LlmReflector } from '../../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../../src/core/llm/openaiClient';
import { emptyPlaybook, parsePlaybook } from '../../../src/core/playbook/markdown';
import { condenseTrace } from '../../../src/core/trace/condense';
import { countTokens } from '../../../src/core/util/tokens';
import { startModelServer, type ModelServer, type ScriptedReply } from '../../../testing/modelServer';
import { EXAMPLES } from '../../support/paths';
import { simulatedModel } from '../../../testing/simulatedModel';
import { tempDir } from '../../../testing/tmp';
import { makeTrace, shell, user } from '../../../testing/traces';

describe('LLM roles', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const client = async (reply: ScriptedReply | ((r: Parameters<typeof simulatedModel>[0]) => ScriptedReply)) => {
    server = await startModelServer(typeof reply === 'function' ? { responder: reply } : { script: [reply] });
    return new OpenAiCompatibleClient({ baseUrl: server.url, apiKey: 'k', model: 'sim', backoffBaseMs: 5 });
  };
  const trace = makeTrace('claude-code:s1', [
    user('run the tests'),
    ...shell('pnpm test', 'Error: no prisma client', 1),
    ...shell('pnpm db:generate', 'ok'),
    ...shell('pnpm test', 'ok'),
  ]);

  it('reflector: keeps lessons grounded in real steps, drops the rest with a warning, keeps only known rule tags', async () => {
    const reflector = new LlmReflector(
      await client({
        content: JSON.stringify({
          lessons: [
            {
              section: 'Build and test',
              content: 'Run pnpm db:generate before pnpm test.',
              kind: 'procedure',
              evidence_steps: [1, 2, 3, 99],
            },
            {
              section: 'Pitfalls',
              content: 'An invented lesson with no real evidence.',
              kind: 'pitfall',
              evidence_steps: [42],
            },
          ],
          bullet_tags: [
            { id: 'bat-00001', tag: 'helpful', reason: 'used' },
            { id: 'zzz-00009', tag: 'harmful', reason: 'unknown' },
          ],
        }),
      }),
    );
    const playbook = parsePlaybook('## Build and test\n[bat-00001] helpful=0 harmful=0 :: Use pnpm.\n');
    const result = await reflector.reflect(trace, playbook);
    assert.deepEqual(
      result.value.lessons.map((l) => [l.content, l.evidence.steps]),
      [['Run pnpm db:generate before pnpm test.', [1, 2, 3]]],
    );
    assert.deepEqual(
      result.value.tags.map((t) => t.id),
      ['bat-00001'],
    );
    assert.match(result.warnings.join('\n'), /citing no real step was dropped/);
    const prompt = server!.requests[0].messages.map((m) => m.content).join('\n');
    assert.match(prompt, /^\[bat-00001\] Use pnpm\.$/m, 'the frozen playbook is shown with ids');
    assert.match(prompt, /#1 TOOL Bash: \$ pnpm test\n#2 RESULT FAILED exit 1/);
  });

  it('aggregator: resolves support from the cited labels, unions duplicates, drops operations citing nothing known', async () => {
    const aggregator = new LlmAggregator(
      await client({
        content: JSON.stringify({
          operations: [
            {
              type: 'ADD',
              section: 'Build and test',
              content: 'Run pnpm db:generate before pnpm test.',
              sources: ['L1', 'L2', 'L3'],
            },
            { type: 'ADD', section: 'Pitfalls', content: 'Something from nowhere at all.', sources: ['L77'] },
          ],
        }),
      }),
    );
    const lesson = (traceId: string, steps: number[]) => ({
      section: 'Build and test',
      content: 'db:generate first',
      kind: 'procedure' as const,
      evidence: { traceId, steps },
    });
    const result = await aggregator.aggregate(
      {
        level: 'local',
        deltas: [],
        reflections: [
          { traceId: 'a', lessons: [lesson('a', [1, 2])], tags: [{ id: 'bat-00001', tag: 'helpful' }] },
          { traceId: 'b', lessons: [lesson('b', [4])], tags: [] },
          { traceId: 'a', lessons: [lesson('a', [2, 3])], tags: [] },
        ],
      },
      emptyPlaybook(),
    );
    assert.equal(result.value.ops.length, 1);
    assert.deepEqual(result.value.ops[0].support, [
      { traceId: 'a', steps: [1, 2, 3] },
      { traceId: 'b', steps: [4] },
    ]);
    assert.deepEqual(result.value.tags, [{ id: 'bat-00001', tag: 'helpful' }], 'tags pass through without the model');
    assert.match(result.warnings[0], /citing no known source was dropped/);
  });

  it('aggregator: accounts for every item — kept alone, merged with others or as a repeat, rejected with a reason, dropped', async () => {
    const aggregator = new LlmAggregator(
      await client({
        content: JSON.stringify({
          operations: [
            { type: 'ADD', section: 'Build', content: 'Run pnpm db:generate before pnpm test.', sources: ['L1'] },
            { type: 'ADD', section: 'Test', content: 'Set TZ=UTC when running vitest here.', sources: ['L2', 'L3'] },
          ],
          rejected: [{ sources: ['L4'], reason: 'the playbook already says it as [bld-00001]' }],
        }),
      }),
    );
    const lesson = (traceId: string, content: string) => ({
      section: 'Build',
      content,
      kind: 'procedure' as const,
      evidence: { traceId, steps: [1] },
    });
    const result = await aggregator.aggregate(
      {
        level: 'local',
        deltas: [],
        reflections: [
          { traceId: 'a', lessons: [lesson('a', 'db:generate first'), lesson('a', 'TZ=UTC for vitest')], tags: [] },
          { traceId: 'b', lessons: [lesson('b', 'TZ must be UTC')], tags: [] },
          { traceId: 'c', lessons: [lesson('c', 'pnpm build first'), lesson('c', 'docs need mkdocs')], tags: [] },
          // the augmented shuffle's copy of a's first lesson, left uncited: a repeat of one that was kept
          { traceId: 'a', lessons: [lesson('a', 'db:generate first')], tags: [] },
        ],
      },
      emptyPlaybook(),
    );
    assert.deepEqual(
      result.items?.map((i) => [i.label, i.fate, i.reason ?? '']),
      [
        ['L1', 'kept', ''],
        ['L2', 'merged', ''],
        ['L3', 'merged', ''],
        ['L4', 'rejected', 'the playbook already says it as [bld-00001]'],
        ['L5', 'dropped', ''],
        ['L6', 'merged', ''],
      ],
    );
    assert.deepEqual(result.items?.[4].ref, { reflection: 2, lesson: 1 }, 'a dropped item says where it came from');
  });

  it("aggregator (global): labels the local deltas' operations and says they come from parallel curators", async () => {
    const aggregator = new LlmAggregator(await client(simulatedModel));
    const op = (traceId: string) => ({
      op: 'ADD' as const,
      section: 'Pitfalls',
      content: 'Use TZ=UTC for vitest.',
      support: [{ traceId, steps: [1] }],
    });
    const result = await aggregator.aggregate(
      {
        level: 'global',
        reflections: [],
        deltas: [
          { ops: [op('a')], tags: [] },
          { ops: [op('b')], tags: [] },
        ],
      },
      emptyPlaybook(),
    );
    assert.match(server!.requests[0].messages[0].content, /parallel curators/);
    assert.match(
      server!.requests[0].messages[1].content,
      /^D1\.1 \(1 session\(s\)\): ADD to "Pitfalls": Use TZ=UTC for vitest\.$/m,
    );
    assert.deepEqual(
      result.value.ops[0].support.map((s) => s.traceId),
      ['a', 'b'],
    );
  });

  it('condenses to the token budget, cutting long outputs in the middle and keeping step numbers', () => {
    const noisy = makeTrace('claude-code:big', [
      user('fix it'),
      ...shell('pnpm test', `${'line of output\n'.repeat(5000)}Error: the real cause`, 1),
      ...Array.from({ length: 200 }, (_, i) => shell(`echo ${i}`, 'x'.repeat(300))).flat(),
    ]);
    const condensed = condenseTrace(noisy, 2000);
    assert.ok(condensed.tokens <= 2000, `${condensed.tokens} tokens`);
    assert.equal(condensed.tokens, countTokens(condensed.text));
    assert.match(condensed.text, /#0 USER: fix it/);
    assert.match(condensed.text, /#2 RESULT FAILED exit 1: /);
    assert.ok(condensed.omittedSteps > 0);
    const small = condenseTrace(
      makeTrace('claude-code:s', [user('hi'), ...shell('pnpm lint', `${'a'.repeat(9000)}END`, 1)]),
      6000,
    );
    assert.match(small.text, /\[\.\.\. \d+ characters cut \.\.\.\]\nEND|characters cut \.\.\.\][\s\S]*END/);
    assert.equal(small.omittedSteps, 0);
  });

  it('the CLI learns through a local OpenAI-compatible endpoint given by --base-url (simulated model)', async () => {
    server = await startModelServer({ responder: simulatedModel });
    const store = join(tempDir('combee-llm-'), 'store');
    const out: string[] = [];
    const sink = { result: (t: string) => out.push(t), info: () => {}, warn: (t: string) => out.push(`warning: ${t}`) };
    for (const agent of ['claude-code', 'codex'])
      assert.equal(await runCli(['import', '--from', join(EXAMPLES, 'sessions', agent), '--store', store], sink), 0);
    out.length = 0;
    const code = await runCli(
      [
        'learn',
        '--store',
        store,
        '--workspace',
        tempDir('combee-ws-'),
        '--all-workspaces',
        '--window-days',
        '0',
        '--provider',
        'openai',
        '--base-url',
        server.url,
        '--model',
        'sim',
        '--seed',
        '3',
        '--dry-run',
        '--json',
      ],
      sink,
    );
    assert.equal(code, 0, out.join('\n'));
    const result = JSON.parse(out.join('\n'));
    assert.equal(result.provider, 'openai');
    assert.equal(result.model, 'sim');
    assert.equal(result.run.totals.reflections, 5);
    assert.equal(result.run.totals.calls, 5 + 3, '5 reflections, k=2 local aggregations, 1 global');
    assert.match(result.proposal.files[0].diff, /Check `pnpm test` carefully/);
    assert.ok(
      server.requests.every((r) => !JSON.stringify(r).includes('sk-proj-Zx81')),
      'no secret reaches the model',
    );
  });

  it('a run goes on through 429s, 500s, a hang, malformed and schema-invalid answers, losing only what could not be repaired', async () => {
    let reflections = 0;
    server = await startModelServer({
      responder: (request, index) => {
        const isReflection = request.messages.some((m) => m.content.includes('You review one coding-agent session'));
        if (!isReflection) return simulatedModel(request);
        reflections++;
        // per reflection call, in arrival order: a 429, a 500, a hang, malformed JSON, then schema-invalid twice
        const script: Array<ReturnType<typeof simulatedModel>> = [
          { status: 429, headers: { 'retry-after': '0' } },
          { status: 500 },
          { hang: true },
          { content: '{"lessons": [' },
          { content: '{"lessons": "none"}' },
          { content: '{"lessons": 7}' },
        ];
        return script[index] ?? simulatedModel(request);
      },
    });
    const client = new OpenAiCompatibleClient({
      baseUrl: server.url,
      apiKey: 'k',
      model: 'sim',
      timeoutMs: 300,
      backoffBaseMs: 5,
      concurrency: 1,
    });
    const traces = ['a', 'b', 'c'].map((id) =>
      makeTrace(`claude-code:${id}`, [user('go'), ...shell(`pnpm test:${id}`, 'Error: boom', 1)]),
    );
    const result = await learn({
      traces,
      playbook: emptyPlaybook(),
      reflector: new LlmReflector(client),
      aggregator: new LlmAggregator(client),
      provider: client.info,
      workspace: '/ws',
      concurrency: 1,
      seed: 1,
    });
    assert.equal(result.record.status, 'completed');
    const warnings = result.record.warnings.join('\n');
    assert.match(warnings, /invalid answer after one repair/, 'the reflection whose repair also failed is dropped');
    assert.equal(result.record.nodes.filter((n) => n.kind === 'reflection' && n.status === 'failed').length, 1);
    assert.equal(result.record.totals.reflections, 2, 'the other two sessions were learned');
    assert.ok(reflections >= 6);
  });

  it('counts the calls the endpoint saw: an aggregation with nothing to send is no call', async () => {
    // every session teaches nothing: the local and global aggregations have no item to send
    const c = await client(() => ({ content: JSON.stringify({ lessons: [], bullet_tags: [] }) }));
    const traces = ['a', 'b', 'c', 'd'].map((id) => makeTrace(`claude-code:${id}`, [user('hi'), ...shell('ls', 'x')]));
    const result = await learn({
      traces,
      playbook: emptyPlaybook(),
      reflector: new LlmReflector(c),
      aggregator: new LlmAggregator(c),
      provider: c.info,
      workspace: '/ws',
      concurrency: 1,
      seed: 1,
    });
    assert.equal(result.record.status, 'completed');
    assert.equal(server!.requests.length, 4);
    assert.equal(result.record.totals.calls, server!.requests.length);
  });
});
