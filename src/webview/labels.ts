import type { GraphLayout, PlacedNode } from '../core/learn/record/layout';
import { NODE_HEIGHT, NODE_WIDTH } from '../core/learn/record/layout';
import type { RunNodeView } from '../shared/protocol';
import { el } from './dom';
import { LABEL_LINE_HEIGHT, labelFontSize, labelLines } from './labelMetrics';

// The nodes' labels, kept off the tree's drawing: text is most of what a software rasterizer pays for, and a label
// inside the zoomed drawing is rastered again at every zoom step for every tile it uncovers. Here only the labels of
// the nodes in view are made, in screen space, once the view rests; a pan moves them with the drawing (the compositor
// moves a layer, nothing is repainted) and a zoom hides them until it rests.

/** Below this zoom a node is under 15 px tall, too short for a label in the smallest legible font: not drawn. */
export const LABEL_MIN_SCALE = 0.5;
/** More labels than this in view are too dense to read; none are drawn until the view narrows. */
const MAX_LABELS = 600;

export interface View {
  scale: number;
  tx: number;
  ty: number;
}

export class LabelLayer {
  readonly element: HTMLElement;
  /** The view the labels were made for; undefined when there are none. */
  private builtFor?: View;

  constructor(
    private readonly layout: GraphLayout<RunNodeView>,
    private readonly widthOf: (id: string) => number,
  ) {
    this.element = el('div', undefined, 'labels');
    this.element.setAttribute('aria-hidden', 'true');
  }

  /** While the view moves: a pan carries the labels along, a zoom hides them. */
  follow(view: View): void {
    const built = this.builtFor;
    if (!built) return;
    if (view.scale !== built.scale) {
      this.element.hidden = true;
      return;
    }
    this.element.style.transform = `translate(${(view.tx - built.tx).toFixed(1)}px, ${(view.ty - built.ty).toFixed(1)}px)`;
  }

  clear(): void {
    this.element.replaceChildren();
    this.element.style.transform = '';
    this.element.hidden = false;
    this.builtFor = undefined;
  }

  /** Once the view rests: the labels of the nodes in view, each dimmed as its node is. */
  build(view: View, width: number, height: number, dimmed: (id: string) => boolean): void {
    this.clear();
    if (view.scale < LABEL_MIN_SCALE) return;
    const visible = this.inView(view, width, height);
    if (visible.length > MAX_LABELS) return;
    const fontSize = labelFontSize(view.scale);
    const boxHeight = NODE_HEIGHT * view.scale;
    // as many lines as the node's height holds (two from the zoom the tree opens at): the rest is cut with an ellipsis
    const lines = labelLines(view.scale);
    for (const placed of visible) {
      const nodeWidth = this.widthOf(placed.node.id);
      const label = el('div', undefined, 'label');
      label.dataset.id = placed.node.id;
      const text = el('span', placed.node.label, lines > 1 ? 'label-text wrapped' : 'label-text');
      if (lines > 1) text.style.webkitLineClamp = String(lines);
      label.append(text);
      if (dimmed(placed.node.id)) label.classList.add('dimmed');
      label.style.left = `${(placed.x + 4) * view.scale + view.tx}px`;
      label.style.top = `${placed.y * view.scale + view.ty}px`;
      label.style.width = `${(nodeWidth - 8) * view.scale}px`;
      label.style.height = `${boxHeight}px`;
      label.style.fontSize = `${fontSize.toFixed(2)}px`;
      label.style.lineHeight = String(LABEL_LINE_HEIGHT);
      this.element.append(label);
    }
    this.builtFor = { ...view };
  }

  private inView(view: View, width: number, height: number): Array<PlacedNode<RunNodeView>> {
    const left = -view.tx / view.scale - NODE_WIDTH;
    const top = -view.ty / view.scale - NODE_HEIGHT;
    const right = (width - view.tx) / view.scale;
    const bottom = (height - view.ty) / view.scale;
    return this.layout.nodes.filter((p) => p.x >= left && p.x <= right && p.y >= top && p.y <= bottom);
  }
}
