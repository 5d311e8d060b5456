import type { GraphLayout, PlacedNode } from '../core/learn/layout';
import { NODE_HEIGHT, NODE_WIDTH } from '../core/learn/layout';
import type { RunNodeView } from '../shared/protocol';
import { el } from './dom';

// The nodes' labels, kept off the tree's drawing: text is most of what a software rasterizer pays for, and a label
// inside the zoomed drawing is rastered again at every zoom step for every tile it uncovers. Here only the labels of
// the nodes in view are made, in screen space, once the view rests; a pan moves them with the drawing (the compositor
// moves a layer, nothing is repainted) and a zoom hides them until it rests.

/** Below this zoom a label is under 6 px tall: not drawn. */
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
    const fontSize = 12 * view.scale;
    for (const placed of visible) {
      const nodeWidth = this.widthOf(placed.node.id);
      const label = el('div', fit(placed.node.label, nodeWidth - 12), 'label');
      if (dimmed(placed.node.id)) label.classList.add('dimmed');
      label.style.left = `${(placed.x + 6) * view.scale + view.tx}px`;
      label.style.top = `${placed.y * view.scale + view.ty}px`;
      label.style.width = `${(nodeWidth - 12) * view.scale}px`;
      label.style.height = label.style.lineHeight = `${NODE_HEIGHT * view.scale}px`;
      label.style.fontSize = `${fontSize.toFixed(2)}px`;
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

/** The label cut to what fits (about 7 px a character at the node's font size). */
function fit(label: string, width: number): string {
  const chars = Math.max(4, Math.floor(width / 7));
  return label.length > chars ? `${label.slice(0, chars - 1)}…` : label;
}
