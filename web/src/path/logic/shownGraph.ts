// What the Path view draws of a PathView (issue 44 item 4; docs/path-view.md "Grouping"):
// the hops of hidden agents left out, and routers grouped by AS into one node per network
// unless the user expanded it. Pure.
import type { PathEdge, PathNode, PathView } from '../../../../server/contract/path-view';

export interface ShownNode {
  id: string;
  kind: PathNode['Kind'] | 'AsGroup';
  /** The node itself; for an AS group, its first member. */
  node: PathNode;
  /** An AS group's routers. */
  members: PathNode[];
  /** The AS a router belongs to (its box when expanded), null when none. */
  asn: number | null;
}

export interface ShownEdge {
  key: string;
  from: string;
  to: string;
  weight: number;
  addedLatencyMs: number | null;
  sessionIds: number[];
}

export interface ShownGraph {
  nodes: ShownNode[];
  edges: ShownEdge[];
}

export interface ShownOptions {
  /** Sessions (traces) whose hops are hidden. */
  hiddenSessions: ReadonlySet<number>;
  groupByAs: boolean;
  /** With groupByAs, the networks shown router by router (in a box). */
  expandedAs: ReadonlySet<number>;
}

export const asGroupId = (asn: number) => `as:${asn}`;
export const edgeKey = (from: string, to: string) => `${from}>${to}`;

const visible = (ids: number[], hidden: ReadonlySet<number>) => ids.some((id) => !hidden.has(id));

export function shownGraph(view: PathView, o: ShownOptions): ShownGraph {
  const nodes = view.Nodes.filter((n) => visible(n.SessionIds, o.hiddenSessions));
  const kept = new Set(nodes.map((n) => n.Id));
  const byAs = new Map<number, PathNode[]>();
  if (o.groupByAs) {
    for (const n of nodes) {
      if (n.Kind !== 'Router' || n.Asn === null || o.expandedAs.has(n.Asn)) continue;
      const list = byAs.get(n.Asn) ?? [];
      list.push(n);
      byAs.set(n.Asn, list);
    }
    // A network with one router shown is that router: nothing to group.
    for (const [asn, list] of byAs) if (list.length < 2) byAs.delete(asn);
  }
  const groupOf = new Map<string, string>();
  for (const [asn, list] of byAs) for (const n of list) groupOf.set(n.Id, asGroupId(asn));
  const shown: ShownNode[] = [];
  const emitted = new Set<string>();
  for (const n of nodes) {
    const group = groupOf.get(n.Id);
    if (group) {
      if (emitted.has(group)) continue;
      emitted.add(group);
      const members = byAs.get(n.Asn!)!;
      shown.push({ id: group, kind: 'AsGroup', node: n, members, asn: n.Asn });
    } else {
      shown.push({ id: n.Id, kind: n.Kind, node: n, members: [], asn: n.Kind === 'Router' ? n.Asn : null });
    }
  }
  const edges = new Map<string, ShownEdge>();
  for (const e of view.Edges as PathEdge[]) {
    if (!kept.has(e.From) || !kept.has(e.To)) continue;
    const sessions = e.SessionIds.filter((id) => !o.hiddenSessions.has(id));
    if (!sessions.length) continue;
    const from = groupOf.get(e.From) ?? e.From;
    const to = groupOf.get(e.To) ?? e.To;
    if (from === to) continue; // inside one collapsed network
    const key = edgeKey(from, to);
    const s = edges.get(key);
    if (s) {
      s.weight += e.Weight;
      s.sessionIds = [...new Set([...s.sessionIds, ...sessions])];
      if (e.AddedLatencyMs !== null) s.addedLatencyMs = Math.max(s.addedLatencyMs ?? -Infinity, e.AddedLatencyMs);
    } else {
      edges.set(key, { key, from, to, weight: e.Weight, addedLatencyMs: e.AddedLatencyMs, sessionIds: sessions });
    }
  }
  return { nodes: shown, edges: [...edges.values()] };
}

/** Nodes whose address, name or AS matches the search text (case-insensitive); empty text: none. */
export function searchMatches(g: ShownGraph, text: string): Set<string> {
  const t = text.trim().toLowerCase();
  const out = new Set<string>();
  if (!t) return out;
  for (const n of g.nodes) {
    const all = n.kind === 'AsGroup' ? n.members : [n.node];
    if (all.some((m) => [m.Address ?? '', m.Name, m.AsName ?? '', m.Asn === null ? '' : `as${m.Asn}`].some((f) => f.toLowerCase().includes(t)))) out.add(n.id);
  }
  return out;
}
