import assert from 'node:assert/strict';
import { placeExtent } from '../../../src/webview/viewPlacement';

const limits = { minScale: 0.9, maxScale: 1.5, margin: 20 };
/** Where a layout x lands on the screen. */
const screenX = (p: { scale: number; tx: number }, x: number) => x * p.scale + p.tx;
const screenY = (p: { scale: number; ty: number }, y: number) => y * p.scale + p.ty;

describe('where Fit and the opening view put the tree', () => {
  it('a tree that fits at a legible zoom is shown whole and centred, not blown up past the limit', () => {
    const p = placeExtent({ left: 0, top: 0, right: 400, bottom: 200 }, 1000, 800, limits);
    assert.equal(p.scale, 1.5);
    assert.equal(screenX(p, 0) - 0, 1000 - screenX(p, 400), 'centred across');
    assert.equal(screenY(p, 0), 800 - screenY(p, 200), 'centred down');
    const top = placeExtent({ left: 0, top: 0, right: 400, bottom: 200 }, 1000, 800, limits, true);
    assert.equal(screenY(top, 0), 20, 'at the top when asked');
  });

  it('shrinks a bigger tree only down to the legible zoom', () => {
    const p = placeExtent({ left: 0, top: 0, right: 1000, bottom: 300 }, 1000, 800, limits);
    assert.ok(p.scale < 1 && p.scale >= limits.minScale, String(p.scale));
    const huge = placeExtent({ left: 0, top: 0, right: 20_000, bottom: 40_000 }, 1000, 800, limits);
    assert.equal(huge.scale, limits.minScale);
  });

  it('a tree too wide at that zoom shows its newest column (the right edge) and its top, the rest to scroll to', () => {
    const p = placeExtent({ left: 0, top: 0, right: 3000, bottom: 3000 }, 1440, 900, limits);
    assert.equal(p.scale, limits.minScale);
    assert.equal(screenX(p, 3000), 1440 - 20, 'the right edge in view');
    assert.ok(screenX(p, 0) < 0, 'the oldest column is scrolled to');
    assert.equal(screenY(p, 0), 20, 'from the top');
  });

  it('places a part of the tree (one batch) by its own extent', () => {
    const p = placeExtent({ left: 500, top: 1000, right: 900, bottom: 1100 }, 1000, 800, limits, true);
    assert.equal(screenY(p, 1000), 20);
    assert.ok(screenX(p, 500) >= 20 && screenX(p, 900) <= 980);
  });
});
