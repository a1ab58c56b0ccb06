// The Path view's layered layout (issue 44 item 4; docs/path-view.md "Layout"): agents on the
// left, targets on the right, by @dagrejs/dagre (rank direction left to right). Stable: a
// StableLayout remembers every node and edge it placed; a graph whose nodes and edges were
// all placed before (a shorter or shifted time range, an agent hidden) is drawn where they
// were, without a new layout, so nothing moves; only a graph with something new is laid out
// again, as the union of all it has seen, so the old nodes keep their order.
import dagre from '@dagrejs/dagre';
import type { ShownGraph, ShownNode } from './shownGraph';

export interface Point {
  x: number;
  y: number;
}

export interface Placed {
  /** Centre. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PathLayout {
  nodes: Map<string, Placed>;
  /** By edge key: the points of the edge's line. */
  edges: Map<string, Point[]>;
  width: number;
  height: number;
  /** Whether dagre's crossing-reduction sweeps ran (the first order had crossings). */
  orderSwept: boolean;
}

export const NodeSize: Record<ShownNode['kind'], { width: number; height: number }> = {
  Agent: { width: 150, height: 40 },
  Router: { width: 150, height: 40 },
  Target: { width: 160, height: 40 },
  Silent: { width: 60, height: 24 },
  AsGroup: { width: 180, height: 48 },
};

export function layoutGraph(g: { nodes: { id: string; kind: ShownNode['kind'] }[]; edges: { key: string; from: string; to: string; weight: number }[] }): PathLayout {
  const d = new dagre.graphlib.Graph({ multigraph: false });
  d.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 56, edgesep: 8, marginx: 16, marginy: 16 });
  d.setDefaultEdgeLabel(() => ({}));
  // Insertion order is the tie-break of dagre's ordering: the caller's order (agents first) keeps it stable.
  for (const n of g.nodes) d.setNode(n.id, { ...NodeSize[n.kind] });
  for (const e of g.edges) if (d.hasNode(e.from) && d.hasNode(e.to)) d.setEdge(e.from, e.to, { weight: Math.max(1, Math.round(Math.log2(1 + e.weight))), minlen: 1 });
  // dagre's crossing reduction sweeps the layers until four sweeps in a row find no better
  // order, even when its first order (a walk from the agents) already crosses nothing, which
  // the Path view's layered paths usually do. Those sweeps were ~45% of a cold layout (the
  // first draw runs dagre's code before the JIT has warmed: ~200 ms of CPU for 330 nodes).
  // So: the first order, and the sweeps only when it has a crossing; nothing readable is lost,
  // an order without crossings cannot be improved on.
  let orderSwept = false;
  dagre.layout(d, {
    customOrder: (inner, order) => {
      order(inner, { disableOptimalOrderHeuristic: true });
      if (layerCrossings(inner) === 0) return;
      orderSwept = true;
      order(inner, {});
    },
  });
  const nodes = new Map<string, Placed>();
  for (const id of d.nodes()) {
    const n = d.node(id);
    nodes.set(id, { x: n.x ?? 0, y: n.y ?? 0, width: n.width, height: n.height });
  }
  const edges = new Map<string, Point[]>();
  for (const e of g.edges) {
    const label = d.hasEdge(e.from, e.to) ? d.edge(e.from, e.to) : undefined;
    if (label?.points) edges.set(e.key, label.points.map((p: Point) => ({ x: p.x, y: p.y })));
  }
  const graph = d.graph();
  return { nodes, edges, width: graph.width ?? 0, height: graph.height ?? 0, orderSwept };
}

/** Edge crossings between adjacent layers of dagre's working graph (rank and order set). */
export function layerCrossings(g: Parameters<typeof dagre.layout>[0]): number {
  const layers: string[][] = [];
  for (const v of g.nodes()) {
    const { rank } = g.node(v) as { rank?: number };
    if (rank !== undefined) (layers[rank] ??= []).push(v);
  }
  const orderOf = (v: string) => (g.node(v) as { order: number }).order;
  let crossings = 0;
  for (const layer of layers) {
    const links: [number, number][] = [];
    for (const v of layer ?? []) for (const e of g.outEdges(v) ?? []) links.push([orderOf(e.v), orderOf(e.w)]);
    for (let i = 0; i < links.length; i++) for (let j = i + 1; j < links.length; j++) if ((links[i][0] - links[j][0]) * (links[i][1] - links[j][1]) < 0) crossings++;
  }
  return crossings;
}

/** Layouts of a changing graph that keep every known node where it was. */
export class StableLayout {
  private readonly seenNodes = new Map<string, ShownNode['kind']>();
  private readonly seenEdges = new Map<string, { key: string; from: string; to: string; weight: number }>();
  private current: PathLayout | null = null;
  /** How many times dagre ran (the benchmark and tests read it). */
  runs = 0;

  place(g: ShownGraph): PathLayout {
    const known = this.current && g.nodes.every((n) => this.current!.nodes.has(n.id)) && g.edges.every((e) => this.current!.edges.has(e.key));
    if (!known) {
      for (const n of g.nodes) this.seenNodes.set(n.id, n.kind);
      for (const e of g.edges) this.seenEdges.set(e.key, { key: e.key, from: e.from, to: e.to, weight: e.weight });
      this.current = layoutGraph({ nodes: [...this.seenNodes].map(([id, kind]) => ({ id, kind })), edges: [...this.seenEdges.values()] });
      this.runs++;
    }
    return this.current!;
  }
}
