import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { PortClosedError, PortRpc } from '../../../src/core/util/portRpc';

type Server = {
  double: (n: number) => number;
  slow: (ms: number) => Promise<string>;
  fail: (why: string) => never;
  hang: (x: null) => Promise<never>;
};
type Client = { tell: (text: string) => void };

function pair() {
  const { port1, port2 } = new MessageChannel();
  const told: string[] = [];
  const client = new PortRpc<Server, Client>(port1, { tell: (text) => void told.push(text) });
  const server = new PortRpc<Client, Server>(port2, {
    double: (n) => n * 2,
    slow: (ms) => new Promise((resolve) => setTimeout(() => resolve(`after ${ms} ms`), ms)),
    fail: (why) => {
      throw new Error(why);
    },
    hang: () => new Promise(() => undefined),
  });
  return { port1, port2, client, server, told };
}

describe('typed calls over a message port', () => {
  it('each call gets its own reply, whatever order the answers come in', async () => {
    const { client, port1 } = pair();
    const [slow, fast, doubled] = await Promise.all([
      client.call('slow', 30),
      client.call('slow', 1),
      client.call('double', 21),
    ]);
    assert.deepEqual([slow, fast, doubled], ['after 30 ms', 'after 1 ms', 42]);
    port1.close();
  });

  it('an error on the serving side rejects that call with its message; an unknown method too', async () => {
    const { client, port1 } = pair();
    await assert.rejects(client.call('fail', 'no key'), /no key/);
    await assert.rejects(
      (client as unknown as PortRpc<{ nope: (x: null) => void }>).call('nope', null),
      /no method nope/,
    );
    assert.equal(await client.call('double', 2), 4);
    port1.close();
  });

  it('a notification reaches the other side and needs no answer', async () => {
    const { server, told, port1 } = pair();
    server.notify('tell', 'progress 50 %');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(told, ['progress 50 %']);
    port1.close();
  });

  it('when the other side goes away, every call still waiting is rejected, and later calls too', async () => {
    const { client, port2 } = pair();
    const waiting = [client.call('hang', null), client.call('hang', null)];
    port2.close();
    for (const call of waiting) await assert.rejects(call, PortClosedError);
    await assert.rejects(client.call('double', 1), PortClosedError);
  });

  it('an abort rejects the call here at once', async () => {
    const { client, port1 } = pair();
    const controller = new AbortController();
    const call = client.call('hang', null, controller.signal);
    controller.abort();
    await assert.rejects(call, { name: 'AbortError' });
    port1.close();
  });
});
