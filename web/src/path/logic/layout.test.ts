import { describe, expect, it } from 'vitest';
import { layoutGraph, StableLayout } from './layout';
import { shownGraph } from './shownGraph';
import { edge, node, syntheticView, view } from './fixtures';

const none = { hiddenSessions: new Set<number>(), groupByAs: false, expandedAs: new Set<number>() };

describe('the layered layout', () => {
  it('puts agents on the left and the target on the right, each node once', () => {
    const v = syntheticView(3, 6);
    const layout = new StableLayout().place(shownGraph(v, none));
    expect(layout.nodes.size).toBe(v.Nodes.length);
    const x = (id: string) => layout.nodes.get(id)!.x;
    const target = v.Nodes.find((n) => n.Kind === 'Target')!.Id;
    for (const a of v.Nodes.filter((n) => n.Kind === 'Agent')) expect(x(a.Id)).toBeLessThan(x(target));
    for (const e of v.Edges) expect(x(e.From)).toBeLessThan(x(e.To));
  });

  it('does not move any node when the range shows a part of what was laid out', () => {
    const stable = new StableLayout();
    const full = syntheticView(4, 8);
    const first = stable.place(shownGraph(full, none));
    const before = new Map([...first.nodes].map(([id, p]) => [id, { ...p }]));
    // A shorter range: agent 4 did not trace then.
    const part = stable.place(shownGraph(full, { ...none, hiddenSessions: new Set([4]) }));
    expect(stable.runs).toBe(1);
    for (const [id, p] of part.nodes) expect({ id, x: p.x, y: p.y }).toEqual({ id, x: before.get(id)!.x, y: before.get(id)!.y });
  });

  it('lays out again, keeping what it saw, when a new node appears', () => {
    const stable = new StableLayout();
    const a = view([node('agent:-1'), node('ip:10.0.0.1'), node('ip:10.0.0.9')], [edge('agent:-1', 'ip:10.0.0.1'), edge('ip:10.0.0.1', 'ip:10.0.0.9')]);
    stable.place(shownGraph(a, none));
    const b = view([node('agent:-1'), node('ip:10.0.0.2'), node('ip:10.0.0.9')], [edge('agent:-1', 'ip:10.0.0.2'), edge('ip:10.0.0.2', 'ip:10.0.0.9')]);
    const layout = stable.place(shownGraph(b, none));
    expect(stable.runs).toBe(2);
    // The union: the old branch keeps a place, so going back to the first range moves nothing.
    expect(layout.nodes.has('ip:10.0.0.1')).toBe(true);
    stable.place(shownGraph(a, none));
    expect(stable.runs).toBe(2);
  });

  // Edges between the same two layers whose ends are in opposite orders cross.
  const crossings = (layout: ReturnType<typeof layoutGraph>, edges: { from: string; to: string }[]) => {
    let n = 0;
    const p = (id: string) => layout.nodes.get(id)!;
    for (const a of edges)
      for (const b of edges)
        if (a !== b && p(a.from).x === p(b.from).x && p(a.to).x === p(b.to).x && (p(a.from).y - p(b.from).y) * (p(a.to).y - p(b.to).y) < 0) n++;
    return n / 2;
  };

  it('keeps the first order, without the crossing-reduction sweeps, when it crosses nothing', () => {
    const g = shownGraph(syntheticView(10, 30), none);
    const layout = layoutGraph({ nodes: g.nodes, edges: g.edges });
    expect(layout.orderSwept).toBe(false);
    expect(crossings(layout, g.edges)).toBe(0);
  });

  it('still sweeps when the first order crosses, and uncrosses what can be', () => {
    // dagre's first order walks depth first from the agents: agent 1's routers A (to P) then
    // B (to Q), then agent 2's C, which also goes to P: C -> P crosses B -> Q until the sweeps
    // put B above A (or Q below P).
    const [a1, a2, A, B, C, P, Q, T] = ['agent:1', 'agent:2', 'ip:10.0.1.1', 'ip:10.0.1.2', 'ip:10.0.2.1', 'ip:10.0.3.1', 'ip:10.0.3.2', 'ip:10.0.9.9'];
    const nodes = [a1, a2, A, B, C, P, Q, T].map((id) => ({ id, kind: id.startsWith('agent') ? ('Agent' as const) : ('Router' as const) }));
    const link = (from: string, to: string) => ({ key: `${from}>${to}`, from, to, weight: 1 });
    const edges = [link(a1, A), link(a1, B), link(a2, C), link(A, P), link(B, Q), link(C, P), link(P, T), link(Q, T)];
    const layout = layoutGraph({ nodes, edges });
    expect(layout.orderSwept).toBe(true);
    expect(crossings(layout, edges)).toBe(0);
  });
});
