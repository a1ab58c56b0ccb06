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
  dagre.layout(d);
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
  return { nodes, edges, width: graph.width ?? 0, height: graph.height ?? 0 };
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
