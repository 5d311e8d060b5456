import { NODE_HEIGHT } from '../core/learn/record/layout';

// How big a node's label is at a zoom, apart from the DOM (tested in Node). A label wraps to a second line before it
// is cut: the font stays at the smallest legible size until the node is tall enough for two lines of it, and the
// smallest zoom the tree opens or fits at is the one where two lines fit.

/** The labels' font in CSS pixels: it follows the zoom within these bounds, so zooming in shows more of the text. */
export const LABEL_MIN_FONT = 11;
export const LABEL_MAX_FONT = 14;
export const LABEL_LINE_HEIGHT = 1.15;
/** Room above and below the text inside the node, in CSS pixels (both together). */
const LABEL_PADDING = 2;
/** The font's growth with the zoom: at 1× a node holds two lines of the smallest font with room to spare. */
const FONT_PER_SCALE = 10;

export const labelFontSize = (scale: number): number =>
  Math.min(LABEL_MAX_FONT, Math.max(LABEL_MIN_FONT, FONT_PER_SCALE * scale));

/** How many lines of its label a node shows at this zoom (at least one; the rest of the text is cut). */
export function labelLines(scale: number): number {
  const room = NODE_HEIGHT * scale - LABEL_PADDING;
  return Math.max(1, Math.floor(room / (labelFontSize(scale) * LABEL_LINE_HEIGHT)));
}

/** The smallest zoom at which a label has two lines of the smallest legible font: Fit and the opening view stop here. */
export const TWO_LINE_SCALE =
  Math.ceil(((2 * LABEL_MIN_FONT * LABEL_LINE_HEIGHT + LABEL_PADDING) / NODE_HEIGHT) * 100) / 100;
