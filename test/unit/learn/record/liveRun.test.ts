import assert from 'node:assert/strict';
import type { LiveRunSnapshot } from '../../../../src/core/learn/record/liveRun';
import { liveSnapshots } from '../../../../src/core/learn/record/liveRun';
import type { RunNode, RunRecord } from '../../../../src/core/learn/record/record';
import { learnExamples } from '../../../support/exampleRun';

const head = {
  workspace: '/ws',
  startedAt: '2026-12-01T00:00:00.000Z',
  provider: 'offline',
  model: 'm',
  strategy: 'combee' as const,
  seed: 1,
  duplication: 2,
  traces: 3,
};

describe('a run in progress, as the panel gets it', () => {
  it('sends the nodes so far without their contents, only when new ones came, and what is left when it stops', () => {
    const sent: LiveRunSnapshot[] = [];
    const ledger = { nodes: [] as RunNode[], totals: { calls: 0, costUsd: 0 } as RunRecord['totals'] };
    const live = liveSnapshots(head, ledger, (s) => sent.push(s));
    live.flush();
    assert.equal(sent.length, 0, 'nothing yet');
    ledger.nodes.push({
      id: 'b0:trace:a',
      kind: 'trace',
      batch: 0,
      label: 'a',
      parents: [],
      status: 'ok',
      detail: { x: 1 },
    });
    ledger.totals.calls = 1;
    live.flush();
    live.flush();
    assert.equal(sent.length, 1, 'once per growth');
    assert.equal(sent[0].nodes[0].detail, undefined, 'contents are fetched when the run is recorded');
    assert.equal(sent[0].calls, 1);
    ledger.nodes.push({
      id: 'b0:reflection:a',
      kind: 'reflection',
      batch: 0,
      label: 'r',
      parents: ['b0:trace:a'],
      status: 'ok',
    });
    live.stop();
    assert.equal(sent.length, 2);
    assert.deepEqual(
      sent[1].nodes.map((n) => n.id),
      ['b0:trace:a', 'b0:reflection:a'],
    );
  });

  it('a real run sends its tree as it grows; the last snapshot has every node of the record', async () => {
    const sent: LiveRunSnapshot[] = [];
    const result = await learnExamples((s) => sent.push(s));
    assert.ok(sent.length >= 1);
    for (let i = 1; i < sent.length; i++) assert.ok(sent[i].nodes.length > sent[i - 1].nodes.length, 'it only grows');
    assert.deepEqual(
      sent.at(-1)?.nodes.map((n) => n.id),
      result.record?.nodes.map((n) => n.id),
    );
    assert.ok(sent.every((s) => s.nodes.every((n) => n.detail === undefined)));
  });
});
