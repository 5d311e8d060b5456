import { createHash } from 'node:crypto';
import { countTokens } from '../../src/core/util/tokens';
import type { ChatRequest, ScriptedReply } from '../../testing/modelServer';

/**
 * SIMULATION (not a model). A deterministic reflector and a capacity-limited aggregator spoken over the real
 * OpenAI protocol, so the real client, prompts and scan code run. Context overload is modelled on input size:
 * an aggregation call keeps each distinct item with probability r = min(1, (C / load)^γ), where load is the real
 * text of the request (system and user messages: instructions, the rules shown, every lesson or operation with its
 * label), counted with the o200k tokenizer — so a delta's rules weigh what their wording and support weigh. Which
 * items survive is a hash of (item, call), so runs are replayable. An answer holds the request's max_tokens at most: a
 * model that must stop writes no more operations. What it leaves out on purpose (a rule the
 * playbook has) it names under `rejected`; what overload loses it does not mention, as a real model does not.
 * The planner is not told C or γ: it starts from the default setting and learns what the calls show.
 */
export interface Overload {
  capacityTokens: number;
  gamma: number;
}
export const OVERLOAD: Overload = { capacityTokens: 2500, gamma: 0.7 };
/** The decays the retention table is measured at: gentle to steep. */
export const DECAYS = [0.5, 0.7, 1, 1.5] as const;
/** Latencies, scaled 1:10 from typical hosted-model figures (a reflection ~1.5 s, an aggregation ~1 s + output). */
export const LATENCY = { reflectMs: 150, reflectJitter: 0.2, aggregateBaseMs: 100, aggregatePerOutputOpMs: 2 } as const;

function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

export function retention(load: number, overload: Overload = OVERLOAD): number {
  return Math.min(1, (overload.capacityTokens / Math.max(1, load)) ** overload.gamma);
}

/** The load of a request: the tokens of its whole text. */
export function requestLoad(request: ChatRequest): number {
  return request.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
}

/** The simulated model at the default overload. */
export const simulatedResponder = simulatedModel(OVERLOAD);

/** The simulated model without its latencies: the retention runs, where only what is kept matters. */
export const instantResponder = instantModel(OVERLOAD);

export function instantModel(overload: Overload): (request: ChatRequest, callIndex: number) => ScriptedReply {
  const model = simulatedModel(overload);
  return (request, callIndex) => ({ ...model(request, callIndex), delayMs: 0 });
}

export function simulatedModel(overload: Overload): (request: ChatRequest, callIndex: number) => ScriptedReply {
  return (request, callIndex) => respond(request, callIndex, overload);
}

function respond(request: ChatRequest, callIndex: number, overload: Overload): ScriptedReply {
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  // The task is the first user message: a repair turn (the model's broken answer, "answer again") asks the same.
  const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
  if (system.includes('You review one coding-agent session')) {
    // Reflector: every planted lesson the session states, grounded in its step, except those the rules it is shown
    // already state ("nothing the playbook already says", as its prompt asks).
    const shown = user.split('\n\nSession:\n')[0];
    const lessons = [...user.matchAll(/^#(\d+) USER: Note for the future — (LESSON-\d{3}: .*)$/gm)]
      .filter((m) => !shown.includes(m[2]))
      .map((m) => ({
        section: 'Pitfalls',
        content: m[2],
        kind: 'pitfall',
        evidence_steps: [Number(m[1])],
      }));
    const jitter = 1 + LATENCY.reflectJitter * (2 * unit(`latency:${callIndex}:${user.length}`) - 1);
    return { content: JSON.stringify({ lessons, bullet_tags: [] }), delayMs: LATENCY.reflectMs * jitter };
  }
  // Aggregator: items are "L<n> (...): [kind, section] text" (reflection level) or "D<i>.<j> (...): ADD to ...: text".
  const playbook = user.split('\n\nLessons:')[0].split('\n\nProposed operations:')[0]; // the rules shown
  const items = [...user.matchAll(/^((L|D)[\d.]+) \(\d+ session\(s\)\): (?:\[[^\]]*\] |ADD to "[^"]*": )?(.*)$/gm)].map(
    (m) => ({ label: m[1], text: m[3] }),
  );
  const keep = retention(requestLoad(request), overload);
  const callKey = createHash('sha256').update(user).digest('hex');
  const byText = new Map<string, string[]>();
  for (const item of items) byText.set(item.text, [...(byText.get(item.text) ?? []), item.label]);
  const known = (text: string) => playbook.includes(text.slice(0, 40));
  const rejected = [...byText]
    .filter(([text]) => known(text))
    .map(([, sources]) => ({ sources, reason: 'the playbook already says it' }));
  const operations = [...byText]
    .filter(([text]) => !known(text))
    .filter(([text]) => unit(`${callKey}:${text}`) < keep)
    .map(([content, sources]) => ({ type: 'ADD', section: 'Pitfalls', content, kind: 'pitfall', sources }));
  // an answer holds max_tokens at most: a model that must stop writes no more operations (and says nothing of them)
  const limit = request.max_tokens ?? request.max_completion_tokens ?? Number.POSITIVE_INFINITY;
  let room = limit - countTokens(JSON.stringify({ operations: [], rejected }));
  const written = operations.filter((op) => (room -= countTokens(JSON.stringify(op)) + 1) >= 0);
  const content = JSON.stringify({ operations: written, rejected });
  return {
    content,
    delayMs: LATENCY.aggregateBaseMs + LATENCY.aggregatePerOutputOpMs * written.length,
  };
}
