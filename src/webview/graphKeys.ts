// What the tree's keys, wheel and drags mean, apart from the DOM: plain data, tested in Node.

/** A wheel notch, a zoom button or key: the same factor whatever the device reports as the notch's size. */
export const ZOOM_STEP = 1.2;
/** A press that moves less than this (in CSS pixels, |dx| + |dy|) is a click, not a drag. */
export const DRAG_THRESHOLD = 3;

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

export type GraphKeyAction =
  | { kind: 'zoom'; factor: number }
  | { kind: 'fit' }
  | { kind: 'open' }
  | { kind: 'deselect' }
  | { kind: 'move'; key: ArrowKey };

/** + or = zoom in, − out, 0 fits, Enter opens, Escape deselects, arrows move; any other key is not the tree's. */
export function graphKeyAction(key: string): GraphKeyAction | undefined {
  switch (key) {
    case '+':
    case '=':
      return { kind: 'zoom', factor: ZOOM_STEP };
    case '-':
      return { kind: 'zoom', factor: 1 / ZOOM_STEP };
    case '0':
      return { kind: 'fit' };
    case 'Enter':
      return { kind: 'open' };
    case 'Escape':
      return { kind: 'deselect' };
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'ArrowUp':
    case 'ArrowDown':
      return { kind: 'move', key };
    default:
      return undefined;
  }
}

/** One steady step a notch, whatever the delta's size: in when scrolled up, out when down; none for a sideways scroll. */
export function wheelZoomFactor(deltaY: number): number | undefined {
  if (deltaY === 0) return undefined;
  return deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
}

/** Whether a press has moved far enough to be a drag. */
export function dragged(dx: number, dy: number): boolean {
  return Math.abs(dx) + Math.abs(dy) > DRAG_THRESHOLD;
}
