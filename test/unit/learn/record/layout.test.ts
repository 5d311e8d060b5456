import assert from 'node:assert/strict';
import { BatchLayoutCache, layoutRun, loadLayout, storeLayout } from '../../../../src/core/learn/record/layout';
import { exampleRunRecord } from '../../../support/exampleRun';

describe('the aggregation tree laid out once, with the run record', () => {
  it('a real run is recorded with its layout, and the stored layout gives back the same nodes, edges and bands', async () => {
    const record = await exampleRunRecord();
    assert.ok(record.layout, 'the learner laid the run out');
    const fresh = layoutRun(record.nodes);
    const loaded = loadLayout(record.layout, record.nodes);
    assert.ok(loaded);
    const near = (a: number, b: number) => Math.abs(a - b) <= 0.05;
    for (const placed of fresh.nodes) {
      const again = loaded.byId.get(placed.node.id);
      assert.ok(again && near(again.x, placed.x) && near(again.y, placed.y), placed.node.id);
    }
    const key = (e: { from: string; to: string }) => `${e.from}→${e.to}`;
    assert.deepEqual(loaded.edges.map(key).sort(), fresh.edges.map(key).sort());
    const loadedEdges = new Map(loaded.edges.map((e) => [key(e), e.points] as const));
    for (const edge of fresh.edges) {
      const points: Array<[number, number]> = loadedEdges.get(key(edge)) ?? [];
      assert.equal(points.length, edge.points.length, key(edge));
      edge.points.forEach(([x, y], i) => assert.ok(near(x, points[i][0]) && near(y, points[i][1]), key(edge)));
    }
    assert.deepEqual(loaded.bands, fresh.bands);
    assert.deepEqual(loaded.children, fresh.children);
  });

  it('a stored layout that does not fit the nodes is not used (another run, a damaged record)', async () => {
    const record = await exampleRunRecord();
    assert.ok(record.layout);
    assert.equal(loadLayout(record.layout, record.nodes.slice(1)), undefined);
    assert.equal(
      loadLayout({ ...record.layout, positions: record.layout.positions.map(() => NaN) }, record.nodes),
      undefined,
    );
    // the same input, the same layout, byte for byte
    assert.deepEqual(storeLayout(layoutRun(record.nodes), record.nodes), record.layout);
  });

  it('a run in progress laid out again at each update redoes only the batch that grew, with the same result', async () => {
    const record = await exampleRunRecord();
    const copies = [0, 1, 2, 3].flatMap((copy) =>
      record.nodes.map((n) => ({
        ...n,
        id: `c${copy}:${n.id}`,
        batch: n.batch + copy * 10,
        parents: n.parents.map((p) => `c${copy}:${p}`),
      })),
    );
    const cache = new BatchLayoutCache();
    const place = (layout: ReturnType<typeof layoutRun>) =>
      layout.nodes.map((p) => `${p.node.id}@${p.x.toFixed(1)},${p.y.toFixed(1)}`).sort();
    const grown = copies.length - Math.floor(record.nodes.length / 2);
    for (const count of [grown, grown + 1, copies.length]) {
      const nodes = copies.slice(0, count).map((n) => ({ ...n }));
      const cached = layoutRun(nodes, cache);
      const fresh = layoutRun(nodes);
      assert.deepEqual(place(cached), place(fresh), `${count} nodes`);
      assert.deepEqual(cached.edges, fresh.edges);
      assert.deepEqual(cached.bands, fresh.bands);
      assert.ok(
        cached.nodes.every((p) => nodes.includes(p.node as (typeof nodes)[number])),
        "this call's nodes",
      );
      if (count > grown) assert.equal(cache.laidOut, 1, 'only the batch that grew is laid out again');
    }
  });
});
