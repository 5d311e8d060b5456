import assert from 'node:assert/strict';
import { learningCorpus, plantedLessons } from '../../../bench/learn/corpus';
import { requestLoad, retention, simulatedResponder } from '../../../bench/learn/simulation';
import { reflectionPrompt, localAggregationPrompt } from '../../../src/core/llm/prompts';
import { emptyPlaybook } from '../../../src/core/playbook/markdown';
import { condenseTrace } from '../../../src/core/trace/condense';

describe('learning benchmark simulation (sanity of the model, not a timing)', () => {
  it('plants every lesson the same number of times across the corpus', () => {
    const lessons = plantedLessons(50);
    const traces = learningCorpus(100, lessons, 2, 1);
    const text = traces.map((t) => t.steps.map((s) => ('text' in s ? s.text : '')).join('\n')).join('\n');
    for (const lesson of lessons) assert.equal(text.split(`${lesson.id}:`).length - 1, 4, lesson.id);
  });

  it('the simulated reflector finds the planted lessons in a condensed session, with their steps', () => {
    const [trace] = learningCorpus(1, plantedLessons(2), 2, 3);
    const reply = simulatedResponder(
      { model: 'sim', messages: reflectionPrompt(condenseTrace(trace).text, emptyPlaybook()) },
      0,
    );
    const answer = JSON.parse(reply.content ?? '{}') as {
      lessons: Array<{ content: string; evidence_steps: number[] }>;
    };
    assert.deepEqual(answer.lessons.map((l) => l.content.slice(0, 10)).sort(), ['LESSON-001', 'LESSON-002']);
    for (const l of answer.lessons) assert.equal(trace.steps[l.evidence_steps[0]].kind, 'user');
  });

  it('the load of a request is the tokens of its whole text, lessons and rules alike', () => {
    const messages = localAggregationPrompt(
      [{ label: 'L1', text: '[pitfall, Pitfalls] run `pnpm db:generate` first', sessions: 1 }],
      emptyPlaybook(),
    );
    const load = requestLoad({ model: 'sim', messages });
    assert.ok(load > 100 && load < 1000, String(load));
    const longer = localAggregationPrompt(
      [{ label: 'L1', text: `[pitfall, Pitfalls] ${'run `pnpm db:generate` first, '.repeat(50)}`, sessions: 1 }],
      emptyPlaybook(),
    );
    assert.ok(requestLoad({ model: 'sim', messages: longer }) > load + 300);
  });

  it('overload: retention is 1 up to the capacity and falls as the input grows', () => {
    assert.equal(retention(1000), 1);
    assert.ok(retention(20_000) < 1 && retention(100_000) < retention(20_000));
  });

  it('the capacity-limited aggregator keeps everything from a small call and drops from a huge one, deterministically', () => {
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        label: `L${i + 1}`,
        text: `[pitfall, Pitfalls] LESSON-${String(i).padStart(3, '0')}: do thing ${i}.`,
        sessions: 1,
      }));
    const count = (n: number) =>
      (
        JSON.parse(
          simulatedResponder({ model: 'sim', messages: localAggregationPrompt(items(n), emptyPlaybook()) }, 0)
            .content ?? '{}',
        ) as { operations: unknown[] }
      ).operations.length;
    assert.equal(count(10), 10);
    // ~20 tokens an item: 2,000 of them are five times the capacity
    assert.ok(count(2000) < 1000);
    assert.equal(count(2000), count(2000));
  });
});
