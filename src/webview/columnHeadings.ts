import type { GraphLayout } from '../core/learn/record/layout';
import { NODE_WIDTH } from '../core/learn/record/layout';
import type { RunNodeView } from '../shared/protocol';
import { el } from './dom';
import type { View } from './labels';

// What each column of a batch holds (sessions, reflections, groups, …), in a strip along the top of the graph: drawn
// in screen space at a fixed size, so it reads at any zoom, and following the pan. A stored layout keeps no room for a
// heading above its columns, and a heading in the drawing would shrink with it.

/** Height of the strip, in CSS pixels: the default view leaves room for it. */
export const HEADINGS_HEIGHT = 22;
/** Below this zoom the columns are too narrow for a heading. */
const HEADINGS_MIN_SCALE = 0.45;

const KIND_TITLES: Record<RunNodeView['kind'], string> = {
  trace: 'sessions',
  reflection: 'reflections',
  group: 'groups',
  local: 'local deltas',
  single: 'global',
  global: 'global',
  apply: 'applied',
};

export interface BandColumns {
  /** The batch's extent in the layout. */
  top: number;
  bottom: number;
  left: number;
  right: number;
  columns: Array<{ x: number; title: string }>;
}

/** Each batch's extent and the heading of each of its columns (the global levels before the last are numbered). */
export function bandColumns(layout: GraphLayout<RunNodeView>): Map<number, BandColumns> {
  const byBatch = new Map<number, Array<(typeof layout.nodes)[number]>>();
  for (const placed of layout.nodes) {
    const list = byBatch.get(placed.node.batch);
    if (list) list.push(placed);
    else byBatch.set(placed.node.batch, [placed]);
  }
  const bands = new Map<number, BandColumns>();
  for (const band of layout.bands) {
    const nodes = byBatch.get(band.batch) ?? [];
    const kinds = new Map<number, Set<RunNodeView['kind']>>();
    for (const p of nodes) {
      const set = kinds.get(p.x);
      if (set) set.add(p.node.kind);
      else kinds.set(p.x, new Set([p.node.kind]));
    }
    const xs = [...kinds.keys()].sort((a, b) => a - b);
    const globals = xs.filter((x) => kinds.get(x)?.has('global'));
    const columns = xs.map((x) => {
      const titles = [...(kinds.get(x) ?? [])].map((kind) =>
        kind === 'global' && x !== globals.at(-1) ? `level ${globals.indexOf(x) + 2}` : KIND_TITLES[kind],
      );
      return { x, title: [...new Set(titles)].join(' / ') };
    });
    const ys = nodes.map((p) => p.y);
    bands.set(band.batch, {
      top: band.y,
      bottom: ys.length ? Math.max(...ys) : band.y,
      left: Math.min(band.x, xs[0] ?? band.x),
      right: (xs.at(-1) ?? band.x) + NODE_WIDTH,
      columns,
    });
  }
  return bands;
}

export class ColumnHeadings {
  readonly element: HTMLElement;

  constructor(private readonly bands: Map<number, BandColumns>) {
    this.element = el('div', undefined, 'column-headings');
    this.element.setAttribute('aria-hidden', 'true');
  }

  /** The headings of the batch at the top of the view, one per column of batches laid side by side. */
  show(view: View, width: number): void {
    if (view.scale < HEADINGS_MIN_SCALE) {
      this.element.hidden = true;
      return;
    }
    this.element.hidden = false;
    const top = (HEADINGS_HEIGHT - view.ty) / view.scale;
    const shown = new Map<number, BandColumns>();
    for (const band of this.bands.values()) {
      if (band.bottom < top) continue;
      const key = Math.round(band.left);
      const current = shown.get(key);
      if (!current || band.top < current.top) shown.set(key, band);
    }
    const headings: HTMLElement[] = [];
    for (const band of shown.values())
      for (const column of band.columns) {
        const left = column.x * view.scale + view.tx;
        const columnWidth = NODE_WIDTH * view.scale;
        if (left + columnWidth < 0 || left > width) continue;
        const heading = el('div', column.title, 'column-heading');
        heading.style.left = `${left.toFixed(1)}px`;
        heading.style.width = `${columnWidth.toFixed(1)}px`;
        headings.push(heading);
      }
    this.element.replaceChildren(...headings);
  }
}
