import { createHash } from 'node:crypto';
import type { ChatRequest, Responder, ScriptedReply } from '../../testing/modelServer';

/** The fault mix of the reliability run: shares of all requests, drawn per request from a seeded sequence. */
export const FAULTS = { rateLimited: 0.2, serverError: 0.05, hang: 0.05, malformed: 0.05 } as const;

/**
 * SIMULATION of a bad day at the endpoint: wraps a responder so that a fifth of the requests get a 429 with
 * Retry-After, 5 % a 500, 5 % never answer and 5 % get malformed JSON; the rest answer as `inner` does. Each draw is
 * keyed by what was asked and how many times it was asked before, not by when it arrived: concurrent requests reach
 * the server in an order the machine's load decides, and the same seed must strike the same requests.
 */
export function faultyResponder(inner: Responder, seed: number, faults = FAULTS): Responder {
  const asked = new Map<string, number>();
  return (request: ChatRequest, callIndex: number): ScriptedReply | Promise<ScriptedReply> => {
    const body = createHash('sha256').update(JSON.stringify(request.messages)).digest('hex');
    const times = asked.get(body) ?? 0;
    asked.set(body, times + 1);
    const draw = createHash('sha256').update(`${seed}:${body}:${times}`).digest().readUInt32BE(0) / 2 ** 32;
    let edge = faults.rateLimited;
    if (draw < edge) return { status: 429, headers: { 'retry-after-ms': '100' } };
    if (draw < (edge += faults.serverError)) return { status: 500 };
    if (draw < (edge += faults.hang)) return { hang: true };
    if (draw < (edge += faults.malformed)) return { content: '{"lessons": [ {"section": "Pitf' };
    return inner(request, callIndex);
  };
}
