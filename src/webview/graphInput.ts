import { dragged, graphKeyAction, wheelZoomFactor, type ArrowKey } from './graphKeys';

// The pointer, the wheel and the keyboard on the tree, turned into calls on the view: the view draws, this listens.

/** What input may do to the view. */
export interface GraphInputTarget {
  /** The surface that takes the pointer and the wheel. */
  readonly canvas: HTMLElement;
  /** The focusable element that takes the keys. */
  readonly element: HTMLElement;
  /** Where the view is panned to now. */
  offset(): { tx: number; ty: number };
  nodeAt(event: PointerEvent): string | undefined;
  hover(event: PointerEvent, dragging: boolean): void;
  hideTooltip(): void;
  panTo(tx: number, ty: number): void;
  zoomAt(factor: number, x: number, y: number): void;
  zoomBy(factor: number): void;
  fit(): void;
  open(): void;
  select(id: string | undefined): void;
  move(key: ArrowKey): void;
}

export function wireGraphInput(target: GraphInputTarget): void {
  const { canvas } = target;
  // the node under the pointer is taken when it goes down: once captured, the pointer's events target the canvas
  let drag: { x: number; y: number; tx: number; ty: number; moved: boolean; node?: string } | undefined;
  canvas.addEventListener('pointerdown', (event) => {
    const node = target.nodeAt(event);
    const { tx, ty } = target.offset();
    drag = { x: event.clientX, y: event.clientY, tx, ty, moved: false, node };
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointerleave', () => target.hideTooltip());
  canvas.addEventListener('pointermove', (event) => {
    target.hover(event, drag?.moved ?? false);
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (dragged(dx, dy)) drag.moved = true;
    if (!drag.moved) return;
    target.panTo(drag.tx + dx, drag.ty + dy);
  });
  canvas.addEventListener('pointerup', () => {
    const clicked = drag && !drag.moved ? drag : undefined;
    drag = undefined;
    if (clicked) target.select(clicked.node);
  });
  canvas.addEventListener('dblclick', () => target.open());
  canvas.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const factor = wheelZoomFactor(event.deltaY);
      if (factor === undefined) return;
      const box = canvas.getBoundingClientRect();
      target.zoomAt(factor, event.clientX - box.left, event.clientY - box.top);
    },
    { passive: false },
  );
  target.element.addEventListener('keydown', (event) => onKey(target, event));
}

function onKey(target: GraphInputTarget, event: KeyboardEvent): void {
  const action = graphKeyAction(event.key);
  if (!action) return;
  switch (action.kind) {
    case 'zoom':
      target.zoomBy(action.factor);
      break;
    case 'fit':
      target.fit();
      break;
    case 'open':
      target.open();
      break;
    case 'deselect':
      target.select(undefined);
      break;
    case 'move':
      target.move(action.key);
      break;
  }
  event.preventDefault();
}
