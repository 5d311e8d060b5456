import type { GraphLayout } from '../core/learn/record/layout';
import { NODE_HEIGHT, NODE_WIDTH } from '../core/learn/record/layout';
import type { RunNodeView } from '../shared/protocol';
import { el } from './dom';

/** Longest side of the overview, in CSS pixels. */
const SIDE = 180;

export interface MinimapHost {
  /** Centres the main view on a point of the layout. */
  centerOn(x: number, y: number): void;
}

/**
 * The whole run in miniature, with the part the main view shows outlined: a canvas (one bitmap, whatever the run's
 * size), drawn once; only the outline moves. A click or a drag on it moves the main view there.
 */
export class Minimap {
  readonly element: HTMLElement;
  private readonly frame: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly ratio: number;
  private painted = false;

  constructor(
    private readonly layout: GraphLayout<RunNodeView>,
    host: MinimapHost,
  ) {
    const width = layout.width + NODE_WIDTH;
    const height = layout.height + NODE_HEIGHT;
    this.ratio = SIDE / Math.max(width, height, 1);
    this.element = el('div', undefined, 'minimap');
    this.element.setAttribute('aria-hidden', 'true');
    this.element.title = 'Overview: click or drag to move the view';
    const canvas = el('canvas');
    this.canvas = canvas;
    canvas.width = Math.max(1, Math.ceil(width * this.ratio));
    canvas.height = Math.max(1, Math.ceil(height * this.ratio));
    this.frame = el('div', undefined, 'minimap-frame');
    this.element.append(canvas, this.frame);
    const move = (event: PointerEvent) => {
      const box = canvas.getBoundingClientRect();
      host.centerOn((event.clientX - box.left) / this.ratio, (event.clientY - box.top) / this.ratio);
    };
    this.element.addEventListener('pointerdown', (event) => {
      event.stopPropagation();
      this.element.setPointerCapture(event.pointerId);
      move(event);
    });
    this.element.addEventListener('pointermove', (event) => {
      if (this.element.hasPointerCapture(event.pointerId)) move(event);
    });
    this.element.addEventListener('wheel', (event) => event.stopPropagation());
  }

  private paint(canvas: HTMLCanvasElement): void {
    const context = canvas.getContext('2d');
    if (!context) return;
    const style = getComputedStyle(this.element);
    const colour = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    const fillOf = (n: RunNodeView) =>
      n.status === 'failed'
        ? colour('--vscode-errorForeground', '#c33')
        : n.kind === 'apply'
          ? colour('--vscode-charts-green', '#3a3')
          : colour('--vscode-descriptionForeground', '#888');
    const w = Math.max(1, NODE_WIDTH * this.ratio * 0.8);
    const h = Math.max(1, NODE_HEIGHT * this.ratio * 0.6);
    for (const placed of this.layout.nodes) {
      context.fillStyle = fillOf(placed.node);
      context.fillRect(placed.x * this.ratio, placed.y * this.ratio, w, h);
    }
  }

  /** Painted again with the theme's new colours. */
  themeChanged(): void {
    this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.painted = this.element.isConnected;
    if (this.painted) this.paint(this.canvas);
  }

  /** Outlines what the main view shows: its size in pixels and the view's transform (painted the first time). */
  show(view: { scale: number; tx: number; ty: number }, width: number, height: number): void {
    // painted once it is in the page, where the theme's colours can be read
    if (!this.painted && this.element.isConnected) {
      this.paint(this.canvas);
      this.painted = true;
    }
    const r = this.ratio / view.scale;
    this.frame.style.left = `${(-view.tx * r).toFixed(1)}px`;
    this.frame.style.top = `${(-view.ty * r).toFixed(1)}px`;
    this.frame.style.width = `${(width * r).toFixed(1)}px`;
    this.frame.style.height = `${(height * r).toFixed(1)}px`;
  }
}
