import type { RunNodeView } from '../shared/protocol';
import { bandColumns, ColumnHeadings, HEADINGS_HEIGHT } from './columnHeadings';
import { el, svg } from './dom';
import { wireGraphInput } from './graphInput';
import { ZOOM_STEP } from './graphKeys';
import { FarDrawing, type FarState } from './farDrawing';
import { LABEL_MIN_SCALE, LabelLayer } from './labels';
import { TWO_LINE_SCALE } from './labelMetrics';
import { placeExtent, type Placement } from './viewPlacement';
import { Minimap } from './minimap';
import { NODE_HEIGHT, NODE_WIDTH, type GraphLayout, type PlacedNode } from '../core/learn/record/layout';

/** The zoom buttons use the keys' step. */
export { ZOOM_STEP };

// The tree drawn as SVG: one transformed group for pan and zoom, edges under nodes. A node's width says its tokens
// and its colour its status; hovering gives its summary; selecting it lights up the nodes it came from and what it
// led to. Keyboard: arrows move along edges (← to what it came from, → to what it led to) and within a column
// (↑ ↓), Enter opens the details, + − zoom about the selection, 0 fits the tree (down to a legible zoom). The wheel
// zooms about the pointer by a steady step a notch.

export interface GraphCallbacks {
  onSelect(node: RunNodeView | undefined): void;
  onOpen(node: RunNodeView): void;
  /** The view (pan and zoom) settled after a change: kept for after a reload. */
  onView(): void;
}

/** How long pan and zoom must rest before the view is reported as settled. */
const VIEW_SETTLE_MS = 250;
/** How long they must rest before what suits the view at rest is made: its labels, a sharper far-out bitmap. */
const REST_MS = 120;

const MIN_SCALE = 0.02;
const MAX_SCALE = 3;
/** Fit and the opening view never go below this (two lines of each label): a bigger run is scrolled, not shrunk. */
const READABLE_SCALE = TWO_LINE_SCALE;
/** The opening view does not blow a small run up past this. */
const OPEN_MAX_SCALE = 1.5;
/** Room around what the opening view shows, in CSS pixels. */
const MARGIN = 16;
/** Below this zoom no label can be read, and the whole tree is shown as one bitmap (see FarDrawing). */
const FAR_SCALE = LABEL_MIN_SCALE;
/** Runs with this many nodes or more get an overview. */
const MINIMAP_NODES = 60;

export class GraphView {
  readonly element: HTMLElement;
  /** The surface that takes the pointer and the wheel. */
  private readonly canvas: HTMLElement;
  /** Holds the drawing and carries the pan and zoom as a CSS transform: moving it repaints nothing. */
  private readonly stage: HTMLElement;
  private readonly viewport: SVGGElement;
  private readonly nodeElements = new Map<string, SVGGElement>();
  /** Each edge's path data; all of them are drawn as one path (thousands of elements cost more than one). */
  private readonly edgeData: Array<{ from: string; to: string; d: string }> = [];
  /** The edges of the selection's lineage, drawn over the others. */
  private readonly litEdges: SVGPathElement = svg('path', { d: '', class: 'edge lit' });
  private readonly announcer: HTMLElement;
  private scale = 1;
  private tx = 0;
  private ty = 0;
  private selected?: string;
  /** The selection's lineage (or the followed rule's path): the other nodes are dimmed. */
  private lit?: ReadonlySet<string>;
  private settle?: ReturnType<typeof setTimeout>;
  private rest?: ReturnType<typeof setTimeout>;
  private readonly labels: LabelLayer;
  /** Made with the drawing: the whole tree as a bitmap, shown when zoomed far out. */
  private farDrawing?: FarDrawing;
  private matches: ReadonlySet<string> = new Set();
  private widths = new Map<string, number>();
  private readonly tooltip: HTMLElement;
  /** Nodes of each column (same x), top to bottom: ↑ and ↓ move within it. */
  private readonly columns = new Map<number, Array<PlacedNode<RunNodeView>>>();
  /** The whole run in miniature (large runs only), with the visible part outlined. */
  private readonly minimap?: Minimap;
  private readonly headings: ColumnHeadings;
  /** Each batch's extent: the opening view shows the first. */
  private readonly bandExtents: ReturnType<typeof bandColumns>;

  constructor(
    private readonly layout: GraphLayout<RunNodeView>,
    private readonly callbacks: GraphCallbacks,
    batchTitles: Map<number, string>,
  ) {
    this.element = el('div', undefined, 'graph');
    this.element.tabIndex = 0;
    this.element.setAttribute('role', 'application');
    this.element.setAttribute(
      'aria-label',
      'Aggregation tree. Arrow keys move along its edges, Enter shows details, plus and minus zoom about the selection, 0 fits the tree as far as it stays legible.',
    );
    this.canvas = el('div', undefined, 'canvas');
    this.stage = el('div', undefined, 'stage');
    const size = { width: Math.ceil(layout.width + NODE_WIDTH), height: Math.ceil(layout.height + NODE_HEIGHT) };
    const drawing = svg('svg', { class: 'drawing', role: 'img', 'aria-label': 'aggregation tree', ...size });
    this.viewport = svg('g', { class: 'viewport' });
    drawing.append(this.viewport);
    this.stage.append(drawing);
    this.labels = new LabelLayer(layout, (id) => this.widths.get(id) ?? NODE_WIDTH);
    this.canvas.append(this.stage, this.labels.element);
    this.tooltip = el('div', undefined, 'tooltip');
    this.tooltip.hidden = true;
    this.tooltip.setAttribute('role', 'tooltip');
    this.announcer = el('div', undefined, 'visually-hidden');
    this.announcer.setAttribute('aria-live', 'polite');
    this.bandExtents = bandColumns(layout);
    this.headings = new ColumnHeadings(this.bandExtents);
    this.element.append(this.canvas, this.headings.element, this.tooltip, this.announcer);
    if (layout.nodes.length >= MINIMAP_NODES) {
      this.minimap = new Minimap(layout, { centerOn: (x, y) => this.centerOn(x, y) });
      this.element.append(this.minimap.element);
    }
    this.draw(batchTitles, size);
    this.wire();
  }

  private draw(batchTitles: Map<number, string>, size: { width: number; height: number }): void {
    const maxTokens = Math.max(1, ...this.layout.nodes.map((p) => p.node.tokens ?? 0));
    const maxLatency = Math.max(1, ...this.layout.nodes.map((p) => p.node.latencyMs ?? 0));
    const widths = new Map(this.layout.nodes.map((p) => [p.node.id, nodeWidth(p.node.tokens ?? 0, maxTokens)]));
    const edges = svg('g', { class: 'edges' });
    for (const edge of this.layout.edges) {
      // from the parent's right side (nodes are narrower than their column) to the child's left side
      const points = edge.points.map(([x, y]) => [x, y] as [number, number]);
      const from = this.layout.byId.get(edge.from);
      if (from && points.length > 0) points[0][0] = from.x + (widths.get(edge.from) ?? NODE_WIDTH);
      this.edgeData.push({ from: edge.from, to: edge.to, d: edgePath(points) });
    }
    const edgePathData = this.edgeData.map((e) => e.d).join(' ');
    edges.append(svg('path', { d: edgePathData, class: 'edge' }), this.litEdges);
    const bands = svg('g', { class: 'bands' });
    for (const band of this.layout.bands) {
      const title = svg('text', { x: band.x, y: band.y + 16, class: 'band-title' });
      title.textContent = batchTitles.get(band.batch) ?? `Batch ${band.batch + 1}`;
      bands.append(title);
    }
    const nodes = svg('g', { class: 'nodes' });
    for (const placed of this.layout.nodes) {
      const { node } = placed;
      const width = widths.get(node.id) ?? NODE_WIDTH;
      const marks = (node.marks ?? []).map((m) => ` mark-${m}`).join('');
      const group = svg('g', {
        class: `node kind-${node.kind} status-${node.status}${marks}`,
        transform: `translate(${placed.x},${placed.y})`,
        'data-id': node.id,
      });
      group.append(svg('rect', { width, height: NODE_HEIGHT, rx: 4, class: 'box' }));
      // a model call's latency as a bar along its bottom edge (log scale, the slowest call of the run is full width)
      if (node.latencyMs && node.latencyMs > 0) {
        const share = Math.log1p(node.latencyMs) / Math.log1p(maxLatency);
        const bar = { x: 2, y: NODE_HEIGHT - 4, width: Math.max(1, (width - 4) * share), height: 2 };
        group.append(svg('rect', { ...bar, class: 'latency' }));
      }
      nodes.append(group);
      this.nodeElements.set(node.id, group);
      const column = this.columns.get(placed.x);
      if (column) column.push(placed);
      else this.columns.set(placed.x, [placed]);
    }
    for (const column of this.columns.values()) column.sort((a, b) => a.y - b.y);
    this.viewport.append(bands, edges, nodes);
    this.widths = widths;
    this.farDrawing = new FarDrawing(this.layout, (id) => widths.get(id) ?? NODE_WIDTH, edgePathData, size);
    this.stage.append(this.farDrawing.element);
  }

  /** One tooltip for all nodes, with the summary of the one under the pointer. */
  private hover(event: PointerEvent, dragging: boolean): void {
    const id = dragging ? undefined : this.nodeAt(event);
    const node = id ? this.layout.byId.get(id) : undefined;
    if (!node) {
      this.tooltip.hidden = true;
      return;
    }
    const box = this.element.getBoundingClientRect();
    this.tooltip.textContent = node.node.summary;
    this.tooltip.style.left = `${event.clientX - box.left + 12}px`;
    this.tooltip.style.top = `${event.clientY - box.top + 12}px`;
    this.tooltip.hidden = false;
  }

  /** The node under the pointer: its element, or far out (where the bitmap is shown) the node at that point. */
  private nodeAt(event: PointerEvent): string | undefined {
    const id = (event.target as Element).closest('.node')?.getAttribute('data-id');
    if (id) return id;
    if (!this.far) return undefined;
    const box = this.canvas.getBoundingClientRect();
    const x = (event.clientX - box.left - this.tx) / this.scale;
    const y = (event.clientY - box.top - this.ty) / this.scale;
    return this.layout.nodes.find(
      (p) => x >= p.x && x <= p.x + (this.widths.get(p.node.id) ?? NODE_WIDTH) && y >= p.y && y <= p.y + NODE_HEIGHT,
    )?.node.id;
  }

  /** Whether the bitmap is shown instead of the drawing. */
  private far = false;

  /**
   * Zooming out past the threshold shows the bitmap at once; zooming in keeps it (magnified) until the view rests:
   * the drawing shown again mid-zoom would be rastered anew at each step.
   */
  private updateFar(resting: boolean): void {
    const far = this.scale < FAR_SCALE ? true : resting ? false : this.far;
    if (far === this.far) return;
    this.far = far;
    this.canvas.classList.toggle('far', far);
    if (far) this.labels.clear();
  }

  private wire(): void {
    wireGraphInput({
      canvas: this.canvas,
      element: this.element,
      offset: () => ({ tx: this.tx, ty: this.ty }),
      nodeAt: (event) => this.nodeAt(event),
      hover: (event, dragging) => this.hover(event, dragging),
      hideTooltip: () => (this.tooltip.hidden = true),
      panTo: (tx, ty) => {
        this.tx = tx;
        this.ty = ty;
        this.apply();
      },
      zoomAt: (factor, x, y) => this.zoomAt(factor, x, y),
      zoomBy: (factor) => this.zoomBy(factor),
      fit: () => this.fit(),
      open: () => this.open(),
      select: (id) => this.select(id),
      move: (key) => this.move(key),
    });
  }

  private move(key: string): void {
    const current = this.selected ? this.layout.byId.get(this.selected) : undefined;
    if (!current) {
      // nothing selected yet: start at the top of the first column (the first session)
      const first = [...this.layout.nodes].sort((a, b) => a.x - b.x || a.y - b.y)[0];
      this.select(first?.node.id, true);
      return;
    }
    let next: string | undefined;
    if (key === 'ArrowLeft') next = current.node.parents.find((p) => this.layout.byId.has(p));
    else if (key === 'ArrowRight') next = this.layout.children.get(current.node.id)?.[0];
    else {
      const column = this.columns.get(current.x) ?? [];
      const at = column.indexOf(current);
      next = column[at + (key === 'ArrowUp' ? -1 : 1)]?.node.id;
    }
    if (next) this.select(next, true);
  }

  /** Selects a node (or none), lights up its lineage, and optionally brings it into view. */
  select(id: string | undefined, reveal = false, path?: ReadonlySet<string>): void {
    if (this.selected) this.nodeElements.get(this.selected)?.classList.remove('selected');
    this.selected = id && this.nodeElements.has(id) ? id : undefined;
    // a followed rule lights its own path; a node otherwise lights all it came from and led to
    const lineage = this.selected ? (path ?? this.lineage(this.selected)) : undefined;
    this.lit = lineage;
    this.canvas.classList.toggle('has-selection', lineage !== undefined);
    for (const [nodeId, element] of this.nodeElements) element.classList.toggle('lit', lineage?.has(nodeId) ?? false);
    this.litEdges.setAttribute(
      'd',
      lineage
        ? this.edgeData
            .filter((e) => lineage.has(e.from) && lineage.has(e.to))
            .map((e) => e.d)
            .join(' ')
        : '',
    );
    this.farDrawing?.invalidate();
    const node = this.selected ? this.layout.byId.get(this.selected) : undefined;
    if (node) {
      this.nodeElements.get(node.node.id)?.classList.add('selected');
      this.announcer.textContent = node.node.summary;
      if (reveal) this.reveal(node);
    }
    this.buildLabels();
    this.paintFar();
    this.callbacks.onSelect(node?.node);
  }

  get selectedId(): string | undefined {
    return this.selected;
  }

  private open(): void {
    const node = this.selected ? this.layout.byId.get(this.selected) : undefined;
    if (node) this.callbacks.onOpen(node.node);
  }

  /** The node, everything it came from and everything it led to. */
  private lineage(id: string): Set<string> {
    const seen = new Set<string>([id]);
    const walk = (next: (id: string) => readonly string[]) => {
      const todo = [id];
      const found = new Set<string>();
      for (let current = todo.pop(); current !== undefined; current = todo.pop()) {
        for (const other of next(current)) {
          if (found.has(other)) continue;
          found.add(other);
          todo.push(other);
        }
      }
      for (const other of found) seen.add(other);
    };
    walk((n) => this.layout.byId.get(n)?.node.parents ?? []);
    walk((n) => this.layout.children.get(n) ?? []);
    return seen;
  }

  /** Marks the nodes matching a search; returns them in reading order. */
  highlight(ids: ReadonlySet<string>): string[] {
    for (const [id, element] of this.nodeElements) element.classList.toggle('match', ids.has(id));
    this.matches = ids;
    this.farDrawing?.invalidate();
    this.paintFar();
    return this.layout.nodes.filter((p) => ids.has(p.node.id)).map((p) => p.node.id);
  }

  /**
   * The whole run in view, centred, when it fits at a readable zoom; else at that zoom from its top and its newest
   * column, to be scrolled. `atTop` puts it just under the headings (the opening view, nearer its headings).
   */
  fit(atTop = false): void {
    const whole = { left: 0, top: 0, right: this.layout.width, bottom: this.layout.height };
    this.place(
      placeExtent(whole, ...this.room(), { minScale: READABLE_SCALE, maxScale: OPEN_MAX_SCALE, margin: 20 }, atTop),
    );
  }

  /**
   * The view a run opens on: the whole run when it fits at a readable zoom; otherwise its first batch at the biggest
   * readable zoom that shows it (a batch too big for that is shown from its top and its newest column, to be
   * scrolled), the overview showing the rest.
   */
  home(): void {
    const [width, height] = this.room();
    const whole = Math.min(width / (this.layout.width + 40), height / (this.layout.height + 40));
    const first = this.layout.bands[0] ? this.bandExtents.get(this.layout.bands[0].batch) : undefined;
    if (whole >= READABLE_SCALE || !first) return this.fit(true);
    const band = { left: first.left, top: first.top, right: first.right, bottom: first.bottom + NODE_HEIGHT };
    this.place(
      placeExtent(band, width, height, { minScale: READABLE_SCALE, maxScale: OPEN_MAX_SCALE, margin: MARGIN }, true),
    );
  }

  /** The area the drawing is shown in: the canvas below the column headings' strip. */
  private room(): [number, number] {
    return [Math.max(1, this.canvas.clientWidth), Math.max(1, this.canvas.clientHeight - HEADINGS_HEIGHT)];
  }

  private place(placement: Placement): void {
    this.scale = clamp(placement.scale);
    this.tx = placement.tx;
    this.ty = HEADINGS_HEIGHT + placement.ty;
    this.apply();
  }

  /** Moves the view so that a point of the layout is in its middle (the minimap's clicks). */
  centerOn(x: number, y: number): void {
    this.tx = this.canvas.clientWidth / 2 - x * this.scale;
    this.ty = this.canvas.clientHeight / 2 - y * this.scale;
    this.apply();
  }

  /** Zooms about the selected node when it is in view, else about the middle of the view. */
  zoomBy(factor: number): void {
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    const placed = this.selected ? this.layout.byId.get(this.selected) : undefined;
    if (placed) {
      const x = (placed.x + (this.widths.get(placed.node.id) ?? NODE_WIDTH) / 2) * this.scale + this.tx;
      const y = (placed.y + NODE_HEIGHT / 2) * this.scale + this.ty;
      if (x >= 0 && y >= 0 && x <= width && y <= height) return this.zoomAt(factor, x, y);
    }
    this.zoomAt(factor, width / 2, height / 2);
  }

  /** Zooms keeping the point (x, y) of the view, in CSS pixels from its top left, where it is. */
  zoomAt(factor: number, x: number, y: number): void {
    const scale = clamp(this.scale * factor);
    this.tx = x - ((x - this.tx) * scale) / this.scale;
    this.ty = y - ((y - this.ty) * scale) / this.scale;
    this.scale = scale;
    this.apply();
  }

  private reveal(placed: PlacedNode<RunNodeView>): void {
    const box = this.canvas.getBoundingClientRect();
    const x = placed.x * this.scale + this.tx;
    const y = placed.y * this.scale + this.ty;
    const margin = 40;
    if (x < margin || y < margin || x > box.width - margin || y > box.height - margin) {
      this.scale = Math.max(this.scale, READABLE_SCALE);
      this.tx = box.width / 2 - (placed.x + NODE_WIDTH / 2) * this.scale;
      this.ty = box.height / 2 - (placed.y + NODE_HEIGHT / 2) * this.scale;
      this.apply();
    }
  }

  private apply(): void {
    this.stage.style.transform = `translate(${this.tx.toFixed(1)}px, ${this.ty.toFixed(1)}px) scale(${this.scale.toFixed(4)})`;
    this.updateFar(false);
    this.paintFar();
    this.labels.follow(this.view);
    clearTimeout(this.rest);
    this.rest = setTimeout(() => {
      this.updateFar(true);
      this.buildLabels();
      this.paintFar(true);
    }, REST_MS);
    this.minimap?.show(this.view, this.canvas.clientWidth, this.canvas.clientHeight);
    this.headings.show(this.view, this.canvas.clientWidth);
    clearTimeout(this.settle);
    this.settle = setTimeout(() => this.callbacks.onView(), VIEW_SETTLE_MS);
  }

  /** Far out, the bitmap is painted again if what it shows changed, or at rest if it is too blurry. */
  private paintFar(sharpen = false): void {
    if (!this.far || !this.farDrawing) return;
    const state: FarState = {
      lit: this.lit,
      selected: this.selected,
      matches: this.matches,
      litEdges: this.litEdges.getAttribute('d') ?? '',
    };
    this.farDrawing.paint(state, this.scale, sharpen);
  }

  /** The theme's colours changed: what was painted with them is painted again. */
  themeChanged(): void {
    this.farDrawing?.invalidate();
    this.paintFar();
    this.minimap?.themeChanged();
  }

  /** The labels in view, none while the bitmap is shown. */
  private buildLabels(): void {
    if (this.far) return this.labels.clear();
    const lit = this.lit;
    this.labels.build(this.view, this.canvas.clientWidth, this.canvas.clientHeight, (id) =>
      lit ? !lit.has(id) : false,
    );
  }

  get view(): { scale: number; tx: number; ty: number } {
    return { scale: this.scale, tx: this.tx, ty: this.ty };
  }

  restoreView(view: { scale: number; tx: number; ty: number }): void {
    this.scale = clamp(view.scale);
    this.tx = view.tx;
    this.ty = view.ty;
    this.apply();
  }
}

function clamp(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** Wider with more tokens (log scale), from 80 % of the column (room for a short label) to all of it. */
function nodeWidth(tokens: number, maxTokens: number): number {
  const share = tokens > 0 ? Math.log1p(tokens) / Math.log1p(maxTokens) : 0;
  return Math.round(NODE_WIDTH * (0.8 + 0.2 * share));
}

/** A smooth path through the layout's points (a cubic curve between each two). */
function edgePath(points: Array<[number, number]>): string {
  if (points.length === 0) return '';
  let d = `M${points[0][0].toFixed(1)},${points[0][1].toFixed(1)}`;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const mx = (x0 + x1) / 2;
    d += ` C${mx.toFixed(1)},${y0.toFixed(1)} ${mx.toFixed(1)},${y1.toFixed(1)} ${x1.toFixed(1)},${y1.toFixed(1)}`;
  }
  return d;
}
