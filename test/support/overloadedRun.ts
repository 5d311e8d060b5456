import { learningCorpus, plantedLessons } from '../../bench/learn/corpus';
import { instantModel } from '../../bench/learn/simulation';
import type { RunRecord } from '../../src/core/learn/record/record';
import { learn } from '../../src/core/learn/run';
import { LlmAggregator, LlmReflector } from '../../src/core/llm/llmRoles';
import { OpenAiCompatibleClient } from '../../src/core/llm/openaiClient';
import { parsePlaybook } from '../../src/core/playbook/markdown';
import { startModelServer, type ChatRequest, type Responder } from '../../testing/modelServer';

const SESSIONS = 60;
/** The simulated model keeps everything up to this load, and loses more the more it is given beyond. */
const SIMULATED_CAPACITY = { capacityTokens: 1500, gamma: 0.7 };
/** The setting the planner is given: well above what the model keeps. */
const SETTING_TOKENS = 16_000;
/** The lesson the model leaves out of every merge of operations, however small: its judgment, not overload. */
const IGNORED_LESSON = 'LESSON-007';

/**
 * The simulated model, which also never keeps one lesson when it merges operations (whatever the call's size), and
 * whose reflections repeat what the playbook already says (so the aggregation rejects it, with a reason).
 */
function stubbornModel(): Responder {
  const simulated = instantModel(SIMULATED_CAPACITY);
  return (request: ChatRequest, callIndex: number) => {
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    if (user.startsWith('Playbook rules related to this session')) {
      const blind = user.replace(
        /^[\s\S]*?\n\nSession:\n/,
        'Playbook rules related to this session:\n(empty)\n\nSession:\n',
      );
      return simulated(
        { ...request, messages: request.messages.map((m) => (m.content === user ? { ...m, content: blind } : m)) },
        callIndex,
      );
    }
    const reply = simulated(request, callIndex);
    if (!user.includes('Proposed operations:') || reply.content === undefined) return reply;
    const answer = JSON.parse(reply.content) as { operations: Array<{ content: string }> };
    answer.operations = answer.operations.filter((op) => !op.content.startsWith(`${IGNORED_LESSON}:`));
    return { ...reply, content: JSON.stringify(answer) };
  };
}

/**
 * A real run whose calls overload: 60 sessions (30 lessons, each in 2) learned through the real client and prompts
 * against that model, with the playbook already holding the first lesson (which the calls reject, with a reason).
 * Its local calls drop items and are redone; its global call drops the ignored lesson, whose redo drops it again and
 * passes it on in code (two sessions support it).
 */
export async function overloadedRunRecord(): Promise<RunRecord> {
  const server = await startModelServer({ responder: stubbornModel() });
  const lessons = plantedLessons(SESSIONS / 2);
  const playbook = parsePlaybook(
    ['# Playbook', '', '## Pitfalls', `[pitfalls-1] helpful=1 harmful=0 :: ${lessons[0].text}`, ''].join('\n'),
  );
  try {
    const client = new OpenAiCompatibleClient({
      baseUrl: server.url,
      apiKey: 'k',
      model: 'overloading',
      concurrency: 4,
    });
    const result = await learn({
      traces: learningCorpus(SESSIONS, lessons, 2, 3),
      playbook,
      reflector: new LlmReflector(client),
      aggregator: new LlmAggregator(client, SETTING_TOKENS),
      provider: client.info,
      workspace: '/ws',
      batchSize: SESSIONS,
      seed: 3,
      concurrency: 4,
    });
    return result.record;
  } finally {
    await server.close();
  }
}
