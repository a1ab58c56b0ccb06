// Path views for the logic tests (and the benchmark's synthetic case): agents' paths that meet.
import type { PathEdge, PathNode, PathView } from '../../../../server/contract/path-view';

export function node(id: string, over: Partial<PathNode> = {}): PathNode {
  const address = id.startsWith('ip:') ? id.slice(3) : null;
  return {
    Id: id,
    Kind: id.startsWith('agent:') ? 'Agent' : id.startsWith('silent:') ? 'Silent' : 'Router',
    Address: address,
    Name: '',
    Asn: null,
    AsName: null,
    Country: null,
    Special: null,
    Mpls: [],
    Agents: [],
    LossStartPercent: null,
    MutedLoss: null,
    SessionIds: [1],
    ...over,
  };
}

export const edge = (from: string, to: string, sessions = [1], weight = 1, latency: number | null = 1): PathEdge => ({ From: from, To: to, Weight: weight, AddedLatencyMs: latency, SessionIds: sessions });

export function view(nodes: PathNode[], edges: PathEdge[], sessions: { id: number; agent: number; name: string }[] = [{ id: 1, agent: -1, name: 'Local Machine' }]): PathView {
  return {
    Kind: 'Summary',
    ID: '1',
    Start: '2026-11-29T10:00:00.000Z',
    End: '2026-11-29T11:00:00.000Z',
    Sessions: sessions.map((s) => ({ SessionId: s.id, TargetId: String(s.id), AgentId: s.agent, AgentName: s.name, TargetAddress: '10.0.0.9', TargetName: 'svc', TargetNodeId: 'ip:10.0.0.9' })),
    Nodes: nodes,
    Edges: edges,
    RouteChanges: [],
    StripIntervalSeconds: 60,
    Strip: [],
  };
}

/**
 * `agents` agents x `hops` hops to one target: each agent's own routers until the last
 * `shared` hops, which all paths share; every 5th hop of an agent load-balanced over two routers.
 * Networks: each agent's routers in AS 64500+agent.
 */
export function syntheticView(agents: number, hops: number, shared = 3): PathView {
  const nodes = new Map<string, PathNode>();
  const edges = new Map<string, PathEdge>();
  const add = (id: string, session: number, over: Partial<PathNode> = {}) => {
    const n = nodes.get(id) ?? node(id, { SessionIds: [], ...over });
    if (!n.SessionIds.includes(session)) n.SessionIds.push(session);
    n.Agents.push({ SessionId: session, AgentName: `agent ${session}`, Hop: 0, LatencyMs: 1, LossPercent: 0, SharePercent: 100 });
    nodes.set(id, n);
  };
  const link = (a: string, b: string, session: number) => {
    const key = `${a} ${b}`;
    const e = edges.get(key) ?? edge(a, b, [], 0, 1);
    if (!e.SessionIds.includes(session)) e.SessionIds.push(session);
    e.Weight += 60;
    edges.set(key, e);
  };
  for (let a = 1; a <= agents; a++) {
    let prev = [`agent:${a}`];
    add(prev[0], a, { Kind: 'Agent', Name: `agent ${a}` });
    for (let h = 1; h <= hops; h++) {
      const own = h <= hops - shared;
      const base = own ? `10.${a}.${h}` : `10.250.${h}`;
      const ids = own && h % 5 === 0 ? [`ip:${base}.1`, `ip:${base}.2`] : [`ip:${base}.1`];
      for (const id of ids) add(id, a, own ? { Asn: 64500 + a, AsName: `NET${a}` } : { Kind: h === hops ? 'Target' : 'Router' });
      for (const p of prev) for (const id of ids) link(p, id, a);
      prev = ids;
    }
  }
  return view([...nodes.values()], [...edges.values()], Array.from({ length: agents }, (_, i) => ({ id: i + 1, agent: i + 1, name: `agent ${i + 1}` })));
}
