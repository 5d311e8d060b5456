import assert from 'node:assert/strict';
import { FAULTS, faultyResponder } from '../../../bench/learn/faults';
import type { ChatRequest, ScriptedReply } from '../../../testing/modelServer';

// Concurrent requests reach the server in an order the machine's load decides: the same seed must strike the same
// requests whatever that order, or a run on a bad day is not reproducible.

const answer: ScriptedReply = { content: '{"lessons": []}' };
const request = (n: number): ChatRequest => ({
  model: 'simulated',
  messages: [{ role: 'user', content: `session ${n}` }],
});

/** What each request was answered when they arrive in `order`, by request. */
function outcomes(order: number[], seed = 4): Map<number, string> {
  const respond = faultyResponder(() => answer, seed);
  const seen = new Map<number, string>();
  order.forEach((n, callIndex) => seen.set(n, JSON.stringify(respond(request(n), callIndex))));
  return seen;
}

describe('the fault simulation', () => {
  const ids = Array.from({ length: 200 }, (_, i) => i);

  it('strikes the same requests whatever order they arrive in', () => {
    const inOrder = outcomes(ids);
    const reversed = outcomes([...ids].reverse());
    for (const n of ids) assert.equal(reversed.get(n), inOrder.get(n), `request ${n}`);
  });

  it('draws again for a request sent again, at about the shares it is given', () => {
    const respond = faultyResponder(() => answer, 4);
    const replies = Array.from({ length: 2000 }, (_, i) => respond(request(1), i) as ScriptedReply);
    const share = (pick: (r: ScriptedReply) => boolean) => replies.filter(pick).length / replies.length;
    assert.ok(Math.abs(share((r) => r.status === 429) - FAULTS.rateLimited) < 0.03);
    assert.ok(Math.abs(share((r) => r === answer) - (1 - Object.values(FAULTS).reduce((a, b) => a + b, 0))) < 0.03);
  });
});
