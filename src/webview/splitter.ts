import { el } from './dom';

// The handle between the graph and the details pane: dragged, or moved with ← → when focused, it sets the pane's width
// (within bounds, so the graph keeps a usable width).

const MIN_PANE = 200;
/** The graph keeps at least this share of the panel's width. */
const MIN_GRAPH_SHARE = 0.4;
const KEY_STEP = 24;

export function splitter(pane: HTMLElement, onResize: (width: number) => void): HTMLElement {
  const handle = el('div', undefined, 'splitter');
  handle.tabIndex = 0;
  handle.setAttribute('role', 'separator');
  handle.setAttribute('aria-orientation', 'vertical');
  handle.setAttribute('aria-label', 'Width of the details pane');
  const bounds = () => {
    const total = pane.parentElement?.clientWidth ?? window.innerWidth;
    return { min: MIN_PANE, max: Math.max(MIN_PANE, total * (1 - MIN_GRAPH_SHARE)) };
  };
  /** Tells assistive technology the pane's width and its bounds. */
  const announce = (width: number) => {
    const { min, max } = bounds();
    handle.setAttribute('aria-valuenow', String(Math.round(width)));
    handle.setAttribute('aria-valuemin', String(min));
    handle.setAttribute('aria-valuemax', String(Math.round(Math.max(min, max))));
  };
  const set = (width: number) => {
    const { min, max } = bounds();
    const clamped = Math.round(Math.min(max, Math.max(min, width)));
    pane.style.width = `${clamped}px`;
    announce(clamped);
    onResize(clamped);
  };
  // a value from the start (it is required of a focusable separator), the real one once the panel is laid out
  announce(MIN_PANE);
  requestAnimationFrame(() => announce(pane.getBoundingClientRect().width));
  let drag: { x: number; width: number } | undefined;
  handle.addEventListener('pointerdown', (event) => {
    drag = { x: event.clientX, width: pane.getBoundingClientRect().width };
    handle.setPointerCapture(event.pointerId);
  });
  handle.addEventListener('pointermove', (event) => {
    if (drag) set(drag.width + drag.x - event.clientX);
  });
  handle.addEventListener('pointerup', () => (drag = undefined));
  handle.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const width = pane.getBoundingClientRect().width;
    set(width + (event.key === 'ArrowLeft' ? KEY_STEP : -KEY_STEP));
    event.preventDefault();
  });
  return handle;
}
