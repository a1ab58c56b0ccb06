import { describe, expect, it } from 'vitest';
import { StableLayout } from './layout';
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
});
