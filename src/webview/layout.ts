import { coordCenter, decrossDfs, graphStratify, layeringLongestPath, sugiyama } from 'd3-dag';
import type { RunNodeView, RunView } from '../shared/protocol';

// The aggregation tree laid out by d3-dag's layered (Sugiyama) layout, one batch at a time (batches share no edges),
// left to right from the sessions to the applied changes, batches top to bottom in columns. Measured on a 1,000-session
// run (2,800 nodes): depth-first decrossing with centred coordinates lays it out in ~0.2 s, where the median
// two-layer heuristic took 4 s and dagre or elkjs took seconds to a minute.

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 30;
const ROW_GAP = 8;
const COLUMN_GAP = 72;
const BATCH_GAP = 56;
/** Width over height the batches are arranged to fill. */
const SCREEN_ASPECT = 1.6;

export interface PlacedNode {
  node: RunNodeView;
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

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  bands: BatchBand[];
  byId: Map<string, PlacedNode>;
  children: Map<string, string[]>;
  width: number;
  height: number;
}

interface Datum {
  id: string;
  parentIds: string[];
}

export function layoutRun(run: RunView): GraphLayout {
  const nodes: PlacedNode[] = [];
  const edges: PlacedEdge[] = [];
  const bands: BatchBand[] = [];
  const byBatch = new Map<number, RunNodeView[]>();
  for (const node of run.nodes) {
    const list = byBatch.get(node.batch);
    if (list) list.push(node);
    else byBatch.set(node.batch, [node]);
  }
  // each batch laid out on its own, at the origin; then the batches are placed in columns (below)
  const laid: Array<{ batch: number; nodes: PlacedNode[]; edges: PlacedEdge[]; width: number; height: number }> = [];
  for (const batch of [...byBatch.keys()].sort((a, b) => a - b)) {
    const members = byBatch.get(batch) ?? [];
    const ids = new Set(members.map((n) => n.id));
    const byId = new Map(members.map((n) => [n.id, n]));
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
    const batchNodes: PlacedNode[] = [];
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
    laid.push({ batch, nodes: batchNodes, edges: batchEdges, width: size.height, height: size.width + BATCH_GAP });
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
  const children = new Map<string, string[]>();
  for (const edge of edges) {
    const list = children.get(edge.from);
    if (list) list.push(edge.to);
    else children.set(edge.from, [edge.to]);
  }
  return {
    nodes,
    edges,
    bands,
    byId: new Map(nodes.map((p) => [p.node.id, p])),
    children,
    width,
    height,
  };
}
