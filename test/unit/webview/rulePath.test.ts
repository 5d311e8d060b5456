import assert from 'node:assert/strict';
import { rulePath } from '../../../src/extension/webview/rulePath';
import { exampleRunRecord } from '../../support/exampleRun';

describe('a rule followed into its run', () => {
  it('runs from the sessions that support it to the apply node, through their reflections, groups and deltas', async () => {
    const record = await exampleRunRecord();
    const apply = record.nodes.find((n) => n.kind === 'apply')!;
    const applied = (apply.detail as Array<{ id?: string; status: string; support: Array<{ traceId: string }> }>).find(
      (a) => a.status === 'applied' && a.id && new Set(a.support.map((s) => s.traceId)).size === 1,
    )!;
    const path = rulePath(record, applied.id!);
    assert.ok(path);
    assert.equal(path.applyNodeId, apply.id);
    const kinds = (id: string) => record.nodes.find((n) => n.id === id)!.kind;
    const traces = path.nodeIds.filter((id) => kinds(id) === 'trace');
    assert.deepEqual(
      traces.map((id) => (record.nodes.find((n) => n.id === id)!.detail as { traceId: string }).traceId),
      [applied.support[0].traceId],
      'only the supporting session',
    );
    for (const kind of ['reflection', 'group', 'apply'] as const)
      assert.ok(
        path.nodeIds.some((id) => kinds(id) === kind),
        `a ${kind} on the path`,
      );
    // every node on the path has a parent on it, but the session it starts from
    for (const id of path.nodeIds.filter((id) => kinds(id) !== 'trace'))
      assert.ok(
        record.nodes.find((n) => n.id === id)!.parents.some((p) => path.nodeIds.includes(p)),
        id,
      );
    assert.equal(rulePath(record, 'nope-99999'), undefined);
  });
});
