import assert from 'node:assert/strict';
import { sessionPath } from '../../../src/extension/webview/sessionPath';
import { exampleRunRecord } from '../../support/exampleRun';

describe('a session followed into its run', () => {
  it('selects its node and lights what the run built on it, from its reflection to the apply node of its batch', async () => {
    const record = await exampleRunRecord();
    const node = record.nodes.find((n) => n.kind === 'trace')!;
    const traceId = (node.detail as { traceId: string }).traceId;
    const path = sessionPath(record, traceId);
    assert.ok(path);
    assert.equal(path.nodeId, node.id);
    const kindOf = (id: string) => record.nodes.find((n) => n.id === id)!;
    assert.deepEqual(
      path.nodeIds.filter((id) => kindOf(id).kind === 'trace'),
      [node.id],
      'no other session',
    );
    for (const kind of ['reflection', 'apply'] as const)
      assert.ok(
        path.nodeIds.some((id) => kindOf(id).kind === kind),
        `a ${kind} on the path`,
      );
    // every node but the session has a parent on the path, and all are in the session's batch
    for (const id of path.nodeIds) {
      assert.equal(kindOf(id).batch, node.batch);
      if (id !== node.id)
        assert.ok(
          kindOf(id).parents.some((p) => path.nodeIds.includes(p)),
          id,
        );
    }
    assert.equal(sessionPath(record, 'claude-code:not-in-this-run'), undefined);
  });
});
