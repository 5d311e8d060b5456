import { coordCenter, decrossDfs, graphStratify, layeringLongestPath, sugiyama } from 'd3-dag';

// The aggregation tree laid out by d3-dag's layered (Sugiyama) layout, one batch at a time (batches share no edges),
// left to right from the sessions to the applied changes, batches top to bottom in columns. Measured on a 1,000-session
// run (2,800 nodes): depth-first decrossing with centred coordinates lays it out in ~0.2 s, where the median
// two-layer heuristic took 4 s and dagre or elkjs took seconds to a minute. The learner lays a run out once, in its
// worker, and keeps it with the run record in its stored form (see `storeLayout`); the webview lays out only the runs
// recorded without one.

/** What the layout needs of a node. */
export interface LayoutNode {
  id: string;
  batch: number;
  parents: readonly string[];
}

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 30;
const ROW_GAP = 8;
const COLUMN_GAP = 72;
const BATCH_GAP = 56;
/** Width over height the batches are arranged to fill. */
const SCREEN_ASPECT = 1.6;

export interface PlacedNode<N extends LayoutNode = LayoutNode> {
  node: N;
  /** Top-left corner. */
  x: number;
  y: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  /** The path's points, from the parent's right side to the child's left side. */
  points: Array<[number, number]>;
}

export interface BatchBand {
  batch: number;
  /** Where its header goes (above its nodes). */
  x: number;
  y: number;
}

export interface GraphLayout<N extends LayoutNode = LayoutNode> {
  nodes: Array<PlacedNode<N>>;
  edges: PlacedEdge[];
  bands: BatchBand[];
  byId: Map<string, PlacedNode<N>>;
  children: Map<string, string[]>;
  width: number;
  height: number;
}

interface Datum {
  id: string;
  parentIds: string[];
}

/** One batch laid out at the origin. */
interface LaidBatch<N extends LayoutNode> {
  batch: number;
  nodes: Array<PlacedNode<N>>;
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/**
 * Each batch's layout from the last call, by batch and what the batch holds. A run in progress grows one batch at a
 * time, so laying out each of its updates again redoes only the batch that grew.
 */
export class BatchLayoutCache {
  private readonly byBatch = new Map<number, { key: string; laid: LaidBatch<LayoutNode> }>();
  /** Batches laid out (not reused) by the last call, for the tests. */
  laidOut = 0;

  get<N extends LayoutNode>(batch: number, key: string, byId: ReadonlyMap<string, N>): LaidBatch<N> | undefined {
    const hit = this.byBatch.get(batch);
    if (hit?.key !== key) return undefined;
    // the same nodes, as this call's objects
    return { ...hit.laid, nodes: hit.laid.nodes.map((p) => ({ ...p, node: byId.get(p.node.id) as N })) };
  }

  set(batch: number, key: string, laid: LaidBatch<LayoutNode>): void {
    this.byBatch.set(batch, { key, laid });
    this.laidOut++;
  }
}

/** What a batch's layout depends on: its nodes and their edges, in order. */
function batchKey(members: readonly LayoutNode[]): string {
  return members.map((n) => `${n.id}<${n.parents.join(' ')}`).join('\n');
}

export function layoutRun<N extends LayoutNode>(runNodes: readonly N[], cache?: BatchLayoutCache): GraphLayout<N> {
  const nodes: Array<PlacedNode<N>> = [];
  const edges: PlacedEdge[] = [];
  const bands: BatchBand[] = [];
  const byBatch = new Map<number, N[]>();
  for (const node of runNodes) {
    const list = byBatch.get(node.batch);
    if (list) list.push(node);
    else byBatch.set(node.batch, [node]);
  }
  // each batch laid out on its own, at the origin; then the batches are placed in columns (below)
  const laid: Array<LaidBatch<N>> = [];
  if (cache) cache.laidOut = 0;
  for (const batch of [...byBatch.keys()].sort((a, b) => a - b)) {
    const members = byBatch.get(batch) ?? [];
    const byId = new Map(members.map((n) => [n.id, n]));
    const key = cache ? batchKey(members) : '';
    const cached = cache?.get(batch, key, byId);
    if (cached) {
      laid.push(cached);
      continue;
    }
    const ids = new Set(members.map((n) => n.id));
    // a parent outside the batch (a damaged record) would make the layout throw: such edges are left out
    const data: Datum[] = members.map((n) => ({ id: n.id, parentIds: n.parents.filter((p) => ids.has(p)) }));
    const dag = graphStratify()(data);
    // sugiyama lays layers out along y: rows are given the node's height, layers its width, then x and y swap
    const layout = sugiyama()
      .layering(layeringLongestPath())
      .decross(decrossDfs())
      .coord(coordCenter())
      .nodeSize([NODE_HEIGHT + ROW_GAP, NODE_WIDTH + COLUMN_GAP]);
    const size = layout(dag);
    const batchNodes: Array<PlacedNode<N>> = [];
    const batchEdges: PlacedEdge[] = [];
    for (const placed of dag.nodes()) {
      const node = byId.get(placed.data.id);
      if (node) batchNodes.push({ node, x: placed.y - NODE_WIDTH / 2, y: placed.x - NODE_HEIGHT / 2 });
    }
    for (const link of dag.links()) {
      const points = link.points.map(([x, y]) => [y, x] as [number, number]);
      // from the parent's right edge to the child's left edge
      if (points.length > 0) {
        points[0] = [points[0][0] + NODE_WIDTH / 2, points[0][1]];
        const last = points.length - 1;
        points[last] = [points[last][0] - NODE_WIDTH / 2, points[last][1]];
      }
      batchEdges.push({ from: link.source.data.id, to: link.target.data.id, points });
    }
    const one = { batch, nodes: batchNodes, edges: batchEdges, width: size.height, height: size.width + BATCH_GAP };
    cache?.set(batch, key, one);
    laid.push(one);
  }
  // Batches in reading order, top to bottom, in as many columns as make the whole about as wide as a screen is
  // (a run of many small batches would otherwise be one thin column, unreadable once fitted).
  const widest = Math.max(1, ...laid.map((b) => b.width)) + COLUMN_GAP;
  const totalHeight = laid.reduce((sum, b) => sum + b.height, 0);
  const columns = Math.max(1, Math.min(laid.length, Math.round(Math.sqrt((SCREEN_ASPECT * totalHeight) / widest))));
  const columnHeight = totalHeight / columns;
  let column = 0;
  let top = 0;
  let width = 0;
  let height = 0;
  for (const batch of laid) {
    if (top > 0 && top + batch.height / 2 > columnHeight && column < columns - 1) {
      column++;
      top = 0;
    }
    const dx = column * widest;
    const dy = top + BATCH_GAP / 2;
    bands.push({ batch: batch.batch, x: dx, y: top });
    for (const placed of batch.nodes) nodes.push({ ...placed, x: placed.x + dx, y: placed.y + dy });
    for (const edge of batch.edges)
      edges.push({ ...edge, points: edge.points.map(([x, y]) => [x + dx, y + dy] as [number, number]) });
    top += batch.height;
    width = Math.max(width, dx + batch.width);
    height = Math.max(height, top);
  }
  return assemble(nodes, edges, bands, width, height);
}

function assemble<N extends LayoutNode>(
  nodes: Array<PlacedNode<N>>,
  edges: PlacedEdge[],
  bands: BatchBand[],
  width: number,
  height: number,
): GraphLayout<N> {
  const children = new Map<string, string[]>();
  for (const edge of edges) {
    const list = children.get(edge.from);
    if (list) list.push(edge.to);
    else children.set(edge.from, [edge.to]);
  }
  return { nodes, edges, bands, byId: new Map(nodes.map((p) => [p.node.id, p])), children, width, height };
}

/**
 * A layout as a run record keeps it: each node's corner in the order of the record's nodes, and only the edges with
 * bends (an edge between neighbouring layers is a straight line from its parent's right side to its child's left).
 */
export interface StoredLayout {
  /** x and y of each node, in the record's node order. */
  positions: number[];
  /** [child index, parent index, x, y, x, y, …]: an edge's points beyond its two ends. */
  bends: number[][];
  /** [batch, x, y] of each batch's header. */
  bands: number[][];
  width: number;
  height: number;
}

const round = (v: number) => Math.round(v * 10) / 10;

export function storeLayout<N extends LayoutNode>(layout: GraphLayout<N>, order: readonly N[]): StoredLayout {
  const index = new Map(order.map((n, i) => [n.id, i]));
  const positions: number[] = [];
  for (const n of order) {
    const placed = layout.byId.get(n.id);
    positions.push(round(placed?.x ?? 0), round(placed?.y ?? 0));
  }
  const bends = layout.edges
    .filter((e) => e.points.length > 2)
    .map((e) => [
      index.get(e.to) ?? -1,
      index.get(e.from) ?? -1,
      ...e.points.slice(1, -1).flatMap(([x, y]) => [round(x), round(y)]),
    ]);
  return {
    positions,
    bends,
    bands: layout.bands.map((b) => [b.batch, round(b.x), round(b.y)]),
    width: round(layout.width),
    height: round(layout.height),
  };
}

/**
 * The layout a record keeps, for its nodes as given (the same nodes in the same order); `undefined` when it does not
 * fit them (another record's, or damaged): the caller lays the run out again.
 */
export function loadLayout<N extends LayoutNode>(
  stored: StoredLayout,
  runNodes: readonly N[],
): GraphLayout<N> | undefined {
  if (stored.positions.length !== runNodes.length * 2 || !stored.positions.every(Number.isFinite)) return undefined;
  const nodes = runNodes.map((node, i) => ({ node, x: stored.positions[2 * i], y: stored.positions[2 * i + 1] }));
  const byId = new Map(nodes.map((p) => [p.node.id, p]));
  const bends = new Map(stored.bends.map((b) => [`${b[0]}:${b[1]}`, b.slice(2)]));
  const index = new Map(runNodes.map((n, i) => [n.id, i]));
  const edges: PlacedEdge[] = [];
  runNodes.forEach((child, c) => {
    const placedChild = nodes[c];
    for (const parentId of child.parents) {
      const parent = byId.get(parentId);
      // as laid out: edges only within a batch
      if (!parent || parent.node.batch !== child.batch) continue;
      const middle = bends.get(`${c}:${index.get(parentId)}`) ?? [];
      const points: Array<[number, number]> = [[parent.x + NODE_WIDTH, parent.y + NODE_HEIGHT / 2]];
      for (let i = 0; i + 1 < middle.length; i += 2) points.push([middle[i], middle[i + 1]]);
      points.push([placedChild.x, placedChild.y + NODE_HEIGHT / 2]);
      edges.push({ from: parentId, to: child.id, points });
    }
  });
  const bands = stored.bands.map(([batch, x, y]) => ({ batch, x, y }));
  return assemble(nodes, edges, bands, stored.width, stored.height);
}
