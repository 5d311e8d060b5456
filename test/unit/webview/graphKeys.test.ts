import assert from 'node:assert/strict';
import { dragged, graphKeyAction, wheelZoomFactor, ZOOM_STEP } from '../../../src/webview/graphKeys';

describe('what the tree makes of its keys, the wheel and a drag', () => {
  it('zooms by one step a key, in with + or =, out with −', () => {
    assert.deepEqual(graphKeyAction('+'), { kind: 'zoom', factor: ZOOM_STEP });
    assert.deepEqual(graphKeyAction('='), { kind: 'zoom', factor: ZOOM_STEP });
    assert.deepEqual(graphKeyAction('-'), { kind: 'zoom', factor: 1 / ZOOM_STEP });
  });

  it('fits with 0, opens with Enter, deselects with Escape, moves with the arrows', () => {
    assert.deepEqual(graphKeyAction('0'), { kind: 'fit' });
    assert.deepEqual(graphKeyAction('Enter'), { kind: 'open' });
    assert.deepEqual(graphKeyAction('Escape'), { kind: 'deselect' });
    for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'])
      assert.deepEqual(graphKeyAction(key), { kind: 'move', key });
  });

  it('leaves every other key alone (the page keeps its own shortcuts)', () => {
    for (const key of ['a', ' ', 'Tab', '1', 'PageDown', 'Shift', 'F5', '_'])
      assert.equal(graphKeyAction(key), undefined);
  });

  it('zooms the wheel by one steady step a notch, whatever the size of the delta', () => {
    for (const delta of [-1, -3, -120, -1000]) assert.equal(wheelZoomFactor(delta), ZOOM_STEP);
    for (const delta of [0.5, 3, 120, 1000]) assert.equal(wheelZoomFactor(delta), 1 / ZOOM_STEP);
  });

  it('does not zoom a sideways scroll', () => {
    assert.equal(wheelZoomFactor(0), undefined);
  });

  it('takes a press that moved 3 pixels or less as a click, and more as a drag', () => {
    assert.equal(dragged(0, 0), false);
    assert.equal(dragged(2, -1), false);
    assert.equal(dragged(-3, 0), false);
    assert.equal(dragged(2, 2), true);
    assert.equal(dragged(0, -4), true);
  });
});
