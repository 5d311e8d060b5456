import type { GraphLayout } from '../core/learn/record/layout';
import { NODE_HEIGHT } from '../core/learn/record/layout';
import type { RunNodeView } from '../shared/protocol';
import { el } from './dom';

// The whole tree as one bitmap, shown instead of the SVG drawing when zoomed far out. Far out, the drawing holds
// thousands of nodes in view and a software rasterizer pays for every tile each zoom step uncovers (150–400 ms a
// frame); a bitmap is only scaled by the compositor, whatever the run's size. It is painted again when what it shows
// changes (the selection, the search, the theme) and, once the view rests, when the zoom needs a sharper one: a
// bitmap sharp enough for every zoom would take 80 ms to allocate before the first frame.

/** Sharp enough for the nearest zoom it is shown at (pixels a layout unit), and never more pixels than this. */
const MAX_RESOLUTION = 0.5;
const MAX_PIXELS = 8_000_000;
/** A bitmap blurrier than the view by more than this is painted again at rest. */
const UPGRADE_BELOW = 0.75;

export interface FarState {
  /** Nodes lit by the selection (the others are dimmed); undefined when nothing is selected. */
  lit?: ReadonlySet<string>;
  selected?: string;
  matches: ReadonlySet<string>;
  /** The edges drawn over the others (the selection's lineage), as SVG path data. */
  litEdges: string;
}

export class FarDrawing {
  readonly element: HTMLCanvasElement;
  /** The resolution it was last painted at; 0 before the first paint. */
  private resolution = 0;
  private readonly edges: Path2D;
  private dirty = true;

  constructor(
    private readonly layout: GraphLayout<RunNodeView>,
    private readonly widthOf: (id: string) => number,
    edgePathData: string,
    private readonly size: { width: number; height: number },
  ) {
    this.element = el('canvas', undefined, 'far-drawing');
    this.element.setAttribute('aria-hidden', 'true');
    this.element.style.width = `${size.width}px`;
    this.element.style.height = `${size.height}px`;
    this.edges = new Path2D(edgePathData);
  }

  /** What it shows changed: painted again the next time it is shown. */
  invalidate(): void {
    this.dirty = true;
  }

  /**
   * Paints it if what it shows changed since it was last painted, or (`sharpen`, when the view rests) if it is
   * too blurry for the zoom it is shown at.
   */
  paint(state: FarState, scale: number, sharpen: boolean): void {
    if (!this.element.isConnected) return;
    const limit = Math.min(MAX_RESOLUTION, Math.sqrt(MAX_PIXELS / Math.max(1, this.size.width * this.size.height)));
    const wanted = Math.min(limit, scale * (window.devicePixelRatio || 1));
    const blurry = this.resolution < wanted * UPGRADE_BELOW;
    if (!this.dirty && !(sharpen && blurry)) return;
    if (this.resolution === 0 || (sharpen && blurry)) {
      this.resolution = wanted;
      this.element.width = Math.max(1, Math.ceil(this.size.width * wanted));
      this.element.height = Math.max(1, Math.ceil(this.size.height * wanted));
    }
    this.dirty = false;
    const context = this.element.getContext('2d');
    if (!context) return;
    // the theme's colours, as the SVG drawing's stylesheet uses them
    const style = getComputedStyle(this.element);
    const colour = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    const edge = colour('--vscode-descriptionForeground', '#888');
    const fill = colour('--vscode-editorWidget-background', '#eee');
    const border = colour('--vscode-contrastBorder', colour('--vscode-descriptionForeground', '#888'));
    const focus = colour('--vscode-focusBorder', '#08f');
    const failed = colour('--vscode-errorForeground', '#c33');
    const applied = colour('--vscode-charts-green', '#3a3');
    const match = colour('--vscode-editor-findMatchBorder', '#e90');
    const flagged = colour('--vscode-editorWarning-foreground', '#b80');
    const retried = colour('--vscode-charts-yellow', '#b90');
    const hedged = colour('--vscode-charts-purple', '#85c');
    const dropped = colour('--vscode-charts-orange', '#d70');
    const redo = colour('--vscode-charts-blue', '#38c');
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.element.width, this.element.height);
    context.setTransform(this.resolution, 0, 0, this.resolution, 0, 0);
    context.lineWidth = 1 / this.resolution;
    context.strokeStyle = edge;
    context.globalAlpha = state.lit ? 0.12 : 0.45;
    context.stroke(this.edges);
    if (state.litEdges) {
      context.globalAlpha = 0.9;
      context.strokeStyle = focus;
      context.stroke(new Path2D(state.litEdges));
    }
    for (const placed of this.layout.nodes) {
      const { node } = placed;
      const width = this.widthOf(node.id);
      context.globalAlpha = state.lit && !state.lit.has(node.id) ? 0.35 : 1;
      context.fillStyle = fill;
      context.fillRect(placed.x, placed.y, width, NODE_HEIGHT);
      const marked =
        node.id === state.selected
          ? focus
          : state.matches.has(node.id)
            ? match
            : node.status === 'failed'
              ? failed
              : node.marks?.includes('flagged')
                ? flagged
                : node.marks?.includes('dropped')
                  ? dropped
                  : node.marks?.includes('redo')
                    ? redo
                    : node.marks?.includes('retried')
                      ? retried
                      : node.marks?.includes('hedged')
                        ? hedged
                        : node.kind === 'apply'
                          ? applied
                          : border;
      context.strokeStyle = marked;
      // a mark must still show at a few pixels a node: drawn thicker than the SVG's
      context.lineWidth = (marked === border ? 1 : 3) / this.resolution;
      context.strokeRect(placed.x, placed.y, width, NODE_HEIGHT);
    }
    context.globalAlpha = 1;
  }
}
