import assert from 'node:assert/strict';
import { NODE_HEIGHT } from '../../../src/core/learn/record/layout';
import {
  LABEL_LINE_HEIGHT,
  LABEL_MAX_FONT,
  LABEL_MIN_FONT,
  labelFontSize,
  labelLines,
  TWO_LINE_SCALE,
} from '../../../src/webview/labelMetrics';

describe('how many lines of its label a node shows', () => {
  it('wraps to two lines at the zoom Fit and the opening view stop at, in the smallest legible font', () => {
    assert.equal(labelLines(TWO_LINE_SCALE), 2);
    assert.equal(labelFontSize(TWO_LINE_SCALE), LABEL_MIN_FONT);
    // the two lines are inside the node's box
    assert.ok(2 * LABEL_MIN_FONT * LABEL_LINE_HEIGHT <= NODE_HEIGHT * TWO_LINE_SCALE);
  });

  it('keeps two lines or more at every zoom above it, the font growing within its bounds', () => {
    for (let scale = TWO_LINE_SCALE; scale <= 3; scale += 0.01) {
      const font = labelFontSize(scale);
      assert.ok(labelLines(scale) >= 2, `${labelLines(scale)} line(s) at ${scale.toFixed(2)}×`);
      assert.ok(font >= LABEL_MIN_FONT && font <= LABEL_MAX_FONT, `${font}px at ${scale.toFixed(2)}×`);
      assert.ok(labelLines(scale) * font * LABEL_LINE_HEIGHT <= NODE_HEIGHT * scale, `overflows at ${scale}×`);
    }
  });

  it('shows more lines zoomed in, and one below the two-line zoom, never none', () => {
    assert.ok(labelLines(3) > labelLines(1));
    assert.equal(labelLines(TWO_LINE_SCALE - 0.05), 1);
    assert.equal(labelLines(0.1), 1);
  });
});
