import assert from 'node:assert/strict';
import { isFromWebview, isStaleReply, type ToWebview } from '../../../src/shared/protocol';

describe('the webview protocol', () => {
  it('accepts only the messages the webview may send', () => {
    assert.equal(isFromWebview({ type: 'ready' }), true);
    assert.equal(isFromWebview({ type: 'selectRun', runId: 'r1', requestId: 3 }), true);
    assert.equal(isFromWebview({ type: 'selectRun', runId: 'r1' }), false);
    assert.equal(isFromWebview({ type: 'selectRun', runId: 7, requestId: 3 }), false);
    assert.equal(isFromWebview({ type: 'ready', runId: 'r1' }), true);
    assert.equal(isFromWebview({ type: 'ready', runId: 7 }), false);
    assert.equal(isFromWebview({ type: 'nodeDetail', runId: 'r1', nodeId: 'b0:apply', requestId: 4 }), true);
    assert.equal(isFromWebview({ type: 'nodeDetail', runId: 'r1', requestId: 4 }), false);
    assert.equal(isFromWebview({ type: 'search', runId: 'r1', query: 'pnpm', requestId: 5 }), true);
    assert.equal(isFromWebview({ type: 'search', runId: 'r1', query: 'x'.repeat(201), requestId: 5 }), false);
    assert.equal(isFromWebview({ type: 'openSession', traceId: 'claude-code:1', step: 3 }), true);
    assert.equal(isFromWebview({ type: 'openSession', traceId: 'claude-code:1', step: -1 }), false);
    assert.equal(isFromWebview({ type: 'openSession', traceId: 'claude-code:1', step: 3, steps: [3, 7] }), true);
    assert.equal(isFromWebview({ type: 'openSession', traceId: 'claude-code:1', steps: [3, -7] }), false);
    assert.equal(isFromWebview({ type: 'openSession', traceId: 'claude-code:1', steps: '3' }), false);
    assert.equal(
      isFromWebview({ type: 'openSession', traceId: 'c:1', steps: Array.from({ length: 5000 }, () => 1) }),
      false,
    );
    assert.equal(isFromWebview({ type: 'openSession', traceId: '../../etc/passwd'.repeat(40) }), false);
    assert.equal(isFromWebview({ type: 'readFile', path: '/etc/passwd' }), false);
    assert.equal(isFromWebview(null), false);
  });

  it('a reply to an older selection is dropped; the newest reply and pushed updates are not', () => {
    const reply = (requestId?: number): ToWebview => ({ type: 'runs', runs: [], requestId });
    assert.equal(isStaleReply(reply(1), 2), true);
    assert.equal(isStaleReply(reply(2), 2), false);
    assert.equal(isStaleReply(reply(undefined), 2), false);
    assert.equal(isStaleReply({ type: 'error', message: 'x' }, 2), false);
    assert.equal(
      isStaleReply({ type: 'nodeDetail', requestId: 3, nodeId: 'n' }, 4),
      true,
      'a detail for an older selection',
    );
    assert.equal(isStaleReply({ type: 'searchResult', requestId: 4, nodeIds: [] }, 4), false);
  });
});
