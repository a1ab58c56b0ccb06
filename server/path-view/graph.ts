// The Path view's graph (issue 44 items 1-2; docs/path-view.md "Nodes and edges"): the
// paths of several traces over a range as one graph. Pure: the service reads the data.
//
// - Every address seen at a hop is one node, whichever traces saw it, so paths that cross the
//   same router meet there. Each trace's agent is a node on the left.
// - A hop that never answered in the range while a later hop did is a silent node between its
//   answering neighbours; keyed by those neighbours, so two traces silent between the same two
//   routers share it. A hop that answered in other minutes of the range is not silent in a
//   minute where it lost every probe: that minute it is taken to be where it was last seen.
// - Each minute, every pair of consecutive hops' addresses is an edge seen once: the weight
//   is how many minutes (summed over traces) the pair was seen together; a load-balanced hop
//   gives parallel branches.
// - Colour data follows the grid's and Insights' rule (server/contract/hop-loss.ts): a node
//   carries the loss that starts at its hop on some trace's path; loss that does not carry on
//   (or a silent router) is muted.
import type { HopHostDetails } from '../contract/hop-details.js';
import { pathLossFindings } from '../contract/hop-loss.js';
import type { PathEdge, PathNode, PathNodeAgentFigures, PathRouteChange, PathSession } from '../contract/path-view.js';
import { hopRouteChanges, type HopMinute } from './route-changes.js';

/** One hop of a trace over the whole range (the grid's hop row). */
export interface TraceHop {
  hop: number;
  /** Percent; NaN when nothing was sent. */
  lossPercent: number;
  answered: boolean;
  latencyMs: number | null;
  /** Every address that answered there in the range, with its details. */
  hosts: HopHostDetails[];
  /** The DNS name of the hop's main address ('' when none). */
  name: string;
}

/** One answering address at a hop in one minute (a hop_hosts row). */
export interface TraceHopMinute {
  minute: number;
  hop: number;
  address: string;
}

/**
 * One minute of a trace as one text: every hop that answered with its addresses, in hop order,
 * addresses sorted: "1=10.0.0.1 2=10.0.1.1,10.0.2.1 3=10.0.0.9". The store answers this form
 * (one row per trace and minute, not one per address), and equal minutes are read once.
 */
export interface TraceMinutePath {
  minute: number;
  path: string;
  /**
   * How many stored minutes, from `minute` on, had this same path in a row (1 when absent).
   * The store reads a steady route as one entry: a day of 24 h is 1,440 minutes per trace and
   * walking each again was ~0.3 s of the 24 h call for 10 traces.
   */
  minutes?: number;
}

export interface TracePath {
  session: Omit<PathSession, 'TargetNodeId'>;
  hops: TraceHop[];
  minutes: TraceMinutePath[];
}

/** hop_hosts rows as minute paths (the open minute from memory; tests). */
export function minutePaths(rows: readonly TraceHopMinute[]): TraceMinutePath[] {
  const byMinute = new Map<number, Map<number, Set<string>>>();
  for (const r of rows) {
    let hops = byMinute.get(r.minute);
    if (!hops) byMinute.set(r.minute, (hops = new Map()));
    let set = hops.get(r.hop);
    if (!set) hops.set(r.hop, (set = new Set()));
    set.add(r.address);
  }
  return [...byMinute.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([minute, hops]) => ({
      minute,
      path: [...hops.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([hop, set]) => `${hop}=${[...set].sort().join(',')}`)
        .join(' '),
    }));
}

/** A minute path's hops and their sorted addresses. */
export function parseMinutePath(path: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const part of path.split(' ')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const hop = Number(part.slice(0, eq));
    const list = part.slice(eq + 1).split(',').filter(Boolean).sort();
    if (Number.isInteger(hop) && hop > 0 && list.length) out.set(hop, list);
  }
  return out;
}

export interface PathGraph {
  sessions: PathSession[];
  nodes: PathNode[];
  edges: PathEdge[];
  routeChanges: PathRouteChange[];
}

export const agentNodeId = (agentId: number) => `agent:${agentId}`;
export const addressNodeId = (address: string) => `ip:${address}`;

/** The hop where the target's own address first answered, null when it never did. */
function targetHopOf(t: TracePath): number | null {
  const h = t.hops.find((x) => x.hosts.some((a) => a.Address === t.session.TargetAddress));
  return h ? h.hop : null;
}

class GraphBuilder {
  readonly nodes = new Map<string, PathNode>();
  readonly edges = new Map<string, PathEdge & { latencySum: number; latencyWeight: number }>();

  node(id: string, init: () => Omit<PathNode, 'Id' | 'Agents' | 'SessionIds' | 'LossStartPercent' | 'MutedLoss'>): PathNode {
    let n = this.nodes.get(id);
    if (!n) this.nodes.set(id, (n = { Id: id, ...init(), Agents: [], SessionIds: [], LossStartPercent: null, MutedLoss: null }));
    return n;
  }

  cross(n: PathNode, sessionId: number): void {
    if (!n.SessionIds.includes(sessionId)) n.SessionIds.push(sessionId);
  }

  /** The edge seen in `minutes` more minutes of a trace. */
  edge(from: string, to: string, sessionId: number, addedLatency: number | null, minutes: number): void {
    const key = `${from} ${to}`;
    let e = this.edges.get(key);
    if (!e) this.edges.set(key, (e = { From: from, To: to, Weight: 0, AddedLatencyMs: null, SessionIds: [], latencySum: 0, latencyWeight: 0 }));
    e.Weight += minutes;
    if (!e.SessionIds.includes(sessionId)) e.SessionIds.push(sessionId);
    if (addedLatency !== null) {
      e.latencySum += addedLatency * minutes;
      e.latencyWeight += minutes;
    }
  }
}

const emptyDetails = { Asn: null, AsName: null, Country: null, Special: null, Mpls: [] };

/** The graph of the traces' paths over their minutes. */
export function buildPathGraph(traces: readonly TracePath[]): PathGraph {
  const g = new GraphBuilder();
  const sessions: PathSession[] = [];
  const routeChanges: PathRouteChange[] = [];
  for (const t of traces) {
    const s = t.session;
    const targetHop = targetHopOf(t);
    const hops = new Map(t.hops.map((h) => [h.hop, h]));
    const order = [...t.minutes].sort((a, b) => a.minute - b.minute);
    // Each distinct minute path is parsed once (a steady route: one text for the whole range).
    const parsed = new Map<string, Map<number, string[]>>();
    const parse = (path: string) => {
      let p = parsed.get(path);
      if (!p) parsed.set(path, (p = parseMinutePath(path)));
      return p;
    };
    const firstSeen = new Map<number, string[]>();
    let deepestSeen = 0;
    for (const m of order) {
      for (const [hop, set] of parse(m.path)) {
        if (!firstSeen.has(hop)) firstSeen.set(hop, set);
        if (hop > deepestSeen) deepestSeen = hop;
      }
    }
    // The route ends where the target answered; else at the deepest hop that answered.
    const last = targetHop ?? Math.max(deepestSeen, 0, ...t.hops.filter((h) => h.hosts.length > 0).map((h) => h.hop));
    const agent = g.node(agentNodeId(s.AgentId), () => ({ Kind: 'Agent', Address: null, Name: s.AgentName, ...emptyDetails }));
    g.cross(agent, s.SessionId);

    // The latency at each hop (the nearest earlier answering hop's when it has none), for the latency an edge adds.
    const latencyAt = (hop: number): number | null => {
      for (let h = hop; h >= 1; h--) {
        const l = hops.get(h)?.latencyMs;
        if (l !== null && l !== undefined) return l;
      }
      return hop < 1 ? 0 : null;
    };
    const addressNode = (hop: number, address: string) => {
      const host = hops.get(hop)?.hosts.find((x) => x.Address === address);
      const isTarget = address === s.TargetAddress;
      const n = g.node(addressNodeId(address), () => ({
        Kind: isTarget ? 'Target' : 'Router',
        Address: address,
        Name: isTarget ? s.TargetName : '',
        ...emptyDetails,
      }));
      if (isTarget) n.Kind = 'Target';
      if (host) {
        n.Asn ??= host.Asn;
        n.AsName ??= host.AsName;
        n.Country ??= host.Country;
        n.Special ??= host.Special;
        if (!n.Mpls.length) n.Mpls = host.Mpls;
      }
      const hopRow = hops.get(hop);
      if (!n.Name && hopRow?.name && hopRow.hosts[0]?.Address === address) n.Name = hopRow.name;
      if (!n.Agents.some((a) => a.SessionId === s.SessionId && a.Hop === hop)) {
        n.Agents.push(figures(s.SessionId, s.AgentName, hop, hopRow, host));
      }
      g.cross(n, s.SessionId);
      return n;
    };

    // Walk the minutes in order, carrying each hop's last seen set over minutes it lost; equal
    // walks (the same sets at every hop) are counted, and drawn once with their count.
    const lastSeen = new Map<number, string[]>();
    const walks = new Map<string, { sets: (string[] | null)[]; minutes: number }>();
    const hopMinutes = new Map<number, HopMinute[]>();
    for (const m of order) {
      const answered = parse(m.path);
      // A run of equal minutes walks as its first: nothing it carries over changes within it.
      const run = m.minutes ?? 1;
      let deepest = 0;
      for (const hop of answered.keys()) if (hop <= last && hop > deepest) deepest = hop;
      if (!deepest) continue;
      const sets: (string[] | null)[] = [];
      let carried = false;
      for (let hop = 1; hop <= deepest; hop++) {
        let set = answered.get(hop);
        if (set) {
          lastSeen.set(hop, set);
          const list = hopMinutes.get(hop) ?? [];
          const prev = list[list.length - 1];
          if (prev && sameList(prev.addresses, set)) prev.count = (prev.count ?? 1) + run;
          else list.push({ minute: m.minute, addresses: set, count: run });
          hopMinutes.set(hop, list);
        } else if (firstSeen.has(hop)) {
          set = lastSeen.get(hop) ?? firstSeen.get(hop);
          carried = true;
        }
        sets.push(set ?? null);
      }
      const key = carried ? sets.map((x) => (x ? x.join(',') : '?')).join(' ') : `${m.path}|${deepest}`;
      const w = walks.get(key);
      if (w) w.minutes += run;
      else walks.set(key, { sets, minutes: run });
    }
    for (const { sets, minutes } of walks.values()) {
      const columns: { hop: number; ids: string[]; silent: boolean }[] = [{ hop: 0, ids: [agent.Id], silent: false }];
      sets.forEach((set, i) => columns.push(set ? { hop: i + 1, ids: set.map((a) => addressNode(i + 1, a).Id), silent: false } : { hop: i + 1, ids: [], silent: true }));
      // Silent hops between answering neighbours, keyed by them.
      for (let i = 1; i < columns.length; i++) {
        if (!columns[i].silent) continue;
        let j = i;
        while (j < columns.length && columns[j].silent) j++;
        const before = columns[i - 1].ids.join(',');
        const after = j < columns.length ? columns[j].ids.join(',') : 'end';
        for (let k = i; k < j; k++) {
          const n = g.node(`silent:${before}>${after}#${k - i + 1}`, () => ({ Kind: 'Silent', Address: null, Name: '', ...emptyDetails }));
          g.cross(n, s.SessionId);
          if (!n.Agents.some((a) => a.SessionId === s.SessionId && a.Hop === columns[k].hop)) {
            n.Agents.push(figures(s.SessionId, s.AgentName, columns[k].hop, hops.get(columns[k].hop), undefined));
          }
          n.MutedLoss = 'Silent';
          columns[k].ids = [n.Id];
        }
        i = j - 1;
      }
      for (let i = 1; i < columns.length; i++) {
        const from = columns[i - 1];
        const to = columns[i];
        const fromLatency = from.hop === 0 ? 0 : latencyAt(from.hop);
        const toLatency = hops.get(to.hop)?.latencyMs ?? null;
        const added = fromLatency !== null && toLatency !== null ? toLatency - fromLatency : null;
        for (const a of from.ids) for (const b of to.ids) g.edge(a, b, s.SessionId, added, minutes);
      }
    }

    markLoss(g, t, targetHop);
    const targetNode = targetHop !== null ? addressNodeId(s.TargetAddress) : null;
    sessions.push({ ...s, TargetNodeId: targetNode && g.nodes.has(targetNode) ? targetNode : null });
    routeChanges.push(...changesOf(t, hopMinutes));
  }
  const edges = [...g.edges.values()].map(({ latencySum, latencyWeight, ...e }) => ({
    ...e,
    AddedLatencyMs: latencyWeight > 0 ? Math.round((latencySum / latencyWeight) * 100) / 100 : null,
  }));
  routeChanges.sort((a, b) => a.Time.localeCompare(b.Time) || a.SessionId - b.SessionId || a.Hop - b.Hop);
  return { sessions, nodes: [...g.nodes.values()], edges, routeChanges };
}

function figures(sessionId: number, agentName: string, hop: number, row: TraceHop | undefined, host: HopHostDetails | undefined): PathNodeAgentFigures {
  return {
    SessionId: sessionId,
    AgentName: agentName,
    Hop: hop,
    LatencyMs: row?.latencyMs ?? null,
    LossPercent: row && Number.isFinite(row.lossPercent) ? row.lossPercent : null,
    SharePercent: host?.SharePercent ?? (row?.hosts.length ? 0 : 100),
  };
}

/** The shared loss rule on this trace's hops: where its loss starts, and which loss is muted. */
function markLoss(g: GraphBuilder, t: TracePath, targetHop: number | null): void {
  const { start, redHerrings } = pathLossFindings(t.hops, targetHop);
  const nodesAt = (hop: number) => [...g.nodes.values()].filter((n) => n.Agents.some((a) => a.SessionId === t.session.SessionId && a.Hop === hop));
  if (start) {
    for (const n of nodesAt(start.hop)) {
      n.LossStartPercent = Math.max(n.LossStartPercent ?? 0, Math.round(start.lossPercent * 10) / 10);
      if (n.MutedLoss === 'NotCarriedOn') n.MutedLoss = null;
    }
  }
  for (const h of redHerrings) for (const n of nodesAt(h.hop)) if (n.LossStartPercent === null && n.Kind !== 'Silent') n.MutedLoss = 'NotCarriedOn';
}

const sameList = (a: string[], b: string[]) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

function changesOf(t: TracePath, hopMinutes: Map<number, HopMinute[]>): PathRouteChange[] {
  const out: PathRouteChange[] = [];
  for (const [hop, minutes] of hopMinutes) {
    for (const c of hopRouteChanges(minutes)) {
      out.push({
        Time: new Date(c.minute).toISOString(),
        SessionId: t.session.SessionId,
        AgentName: t.session.AgentName,
        TargetId: t.session.TargetId,
        Hop: hop,
        Old: c.old,
        New: c.new,
      });
    }
  }
  return out;
}
