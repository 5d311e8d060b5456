// Where the view goes to show a part of the tree, apart from the DOM (tested in Node). Never below a legible zoom: a
// part too big for the view at that zoom is shown from its top and its right edge, the newest column (what was
// applied), and the rest is scrolled to.

export interface Extent {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Placement {
  scale: number;
  tx: number;
  ty: number;
}

export interface PlacementLimits {
  /** The smallest zoom: below it the labels cannot be read. */
  minScale: number;
  /** A small part is not blown up past this. */
  maxScale: number;
  /** Room kept around the part, in CSS pixels. */
  margin: number;
}

/**
 * The view showing `extent` (layout units) in a `width` × `height` area (CSS pixels): as big as fits within the
 * limits; centred across when it fits across, else its right edge at the right; at the top (`atTop`) or centred when
 * it fits down, else its top at the top.
 */
export function placeExtent(
  extent: Extent,
  width: number,
  height: number,
  limits: PlacementLimits,
  atTop = false,
): Placement {
  const spanX = Math.max(1, extent.right - extent.left);
  const spanY = Math.max(1, extent.bottom - extent.top);
  const roomX = Math.max(1, width - 2 * limits.margin);
  const roomY = Math.max(1, height - 2 * limits.margin);
  const fitting = Math.min(limits.maxScale, roomX / spanX, roomY / spanY);
  const scale = Math.max(limits.minScale, fitting);
  const spareX = roomX - spanX * scale;
  const spareY = roomY - spanY * scale;
  const tx =
    spareX >= 0 ? limits.margin + spareX / 2 - extent.left * scale : width - limits.margin - extent.right * scale;
  const ty = limits.margin + (spareY >= 0 && !atTop ? spareY / 2 : 0) - extent.top * scale;
  return { scale, tx, ty };
}
