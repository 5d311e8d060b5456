import { createHash } from 'node:crypto';
import type { ChatRequest, Responder, ScriptedReply } from '../../testing/modelServer';

/** The fault mix of the reliability run: shares of all requests, drawn per request from a seeded sequence. */
export const FAULTS = { rateLimited: 0.2, serverError: 0.05, hang: 0.05, malformed: 0.05 } as const;

/**
 * SIMULATION of a bad day at the endpoint: wraps a responder so that, by request number, a fifth of the requests get
 * a 429 with Retry-After, 5 % a 500, 5 % never answer and 5 % get malformed JSON; the rest answer as `inner` does.
 */
export function faultyResponder(inner: Responder, seed: number, faults = FAULTS): Responder {
  return (request: ChatRequest, callIndex: number): ScriptedReply | Promise<ScriptedReply> => {
    const draw = createHash('sha256').update(`${seed}:${callIndex}`).digest().readUInt32BE(0) / 2 ** 32;
    let edge = faults.rateLimited;
    if (draw < edge) return { status: 429, headers: { 'retry-after-ms': '100' } };
    if (draw < (edge += faults.serverError)) return { status: 500 };
    if (draw < (edge += faults.hang)) return { hang: true };
    if (draw < (edge += faults.malformed)) return { content: '{"lessons": [ {"section": "Pitf' };
    return inner(request, callIndex);
  };
}
