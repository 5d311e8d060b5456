import assert from 'node:assert/strict';
import { isFromWebview, isStaleReply, type ToWebview } from '../../../src/shared/protocol';

describe('the webview protocol', () => {
  it('accepts only the messages the webview may send', () => {
    assert.equal(isFromWebview({ type: 'ready' }), true);
    assert.equal(isFromWebview({ type: 'selectRun', runId: 'r1', requestId: 3 }), true);
    assert.equal(isFromWebview({ type: 'selectRun', runId: 'r1' }), false);
    assert.equal(isFromWebview({ type: 'selectRun', runId: 7, requestId: 3 }), false);
    assert.equal(isFromWebview({ type: 'readFile', path: '/etc/passwd' }), false);
    assert.equal(isFromWebview(null), false);
  });

  it('a reply to an older selection is dropped; the newest reply and pushed updates are not', () => {
    const reply = (requestId?: number): ToWebview => ({ type: 'runs', runs: [], requestId });
    assert.equal(isStaleReply(reply(1), 2), true);
    assert.equal(isStaleReply(reply(2), 2), false);
    assert.equal(isStaleReply(reply(undefined), 2), false);
    assert.equal(isStaleReply({ type: 'error', message: 'x' }, 2), false);
  });
});
