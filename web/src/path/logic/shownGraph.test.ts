import { describe, expect, it } from 'vitest';
import { asGroupId, searchMatches, shownGraph } from './shownGraph';
import { edge, node, view } from './fixtures';

const two = view(
  [
    node('agent:-1', { SessionIds: [1] }),
    node('agent:7', { SessionIds: [2] }),
    node('ip:10.1.0.1', { SessionIds: [1], Asn: 64501, AsName: 'ONE' }),
    node('ip:10.1.0.2', { SessionIds: [1], Asn: 64501, AsName: 'ONE' }),
    node('ip:10.2.0.1', { SessionIds: [2], Name: 'edge.branch.example' }),
    node('ip:10.0.0.9', { SessionIds: [1, 2], Kind: 'Target' }),
  ],
  [
    edge('agent:-1', 'ip:10.1.0.1', [1]),
    edge('ip:10.1.0.1', 'ip:10.1.0.2', [1]),
    edge('ip:10.1.0.2', 'ip:10.0.0.9', [1], 3, 5),
    edge('agent:7', 'ip:10.2.0.1', [2]),
    edge('ip:10.2.0.1', 'ip:10.0.0.9', [2]),
  ],
  [
    { id: 1, agent: -1, name: 'Local Machine' },
    { id: 2, agent: 7, name: 'Branch' },
  ],
);
const none = { hiddenSessions: new Set<number>(), groupByAs: false, expandedAs: new Set<number>() };

describe('what the Path view draws', () => {
  it('draws every node and edge by default', () => {
    const g = shownGraph(two, none);
    expect(g.nodes.map((n) => n.id)).toEqual(two.Nodes.map((n) => n.Id));
    expect(g.edges).toHaveLength(5);
  });

  it("leaves out a hidden agent's hops, keeping nodes other agents still cross", () => {
    const g = shownGraph(two, { ...none, hiddenSessions: new Set([2]) });
    expect(g.nodes.map((n) => n.id)).toEqual(['agent:-1', 'ip:10.1.0.1', 'ip:10.1.0.2', 'ip:10.0.0.9']);
    expect(g.edges.map((e) => e.key)).not.toContain('ip:10.2.0.1>ip:10.0.0.9');
  });

  it('groups the routers of one network into one node, its edges joined, unless expanded', () => {
    const g = shownGraph(two, { ...none, groupByAs: true });
    const group = g.nodes.find((n) => n.id === asGroupId(64501))!;
    expect(group.kind).toBe('AsGroup');
    expect(group.members.map((m) => m.Id)).toEqual(['ip:10.1.0.1', 'ip:10.1.0.2']);
    expect(g.edges.map((e) => e.key).sort()).toEqual(['agent:-1>as:64501', 'agent:7>ip:10.2.0.1', 'as:64501>ip:10.0.0.9', 'ip:10.2.0.1>ip:10.0.0.9']);
    const open = shownGraph(two, { ...none, groupByAs: true, expandedAs: new Set([64501]) });
    expect(open.nodes.map((n) => n.id)).toContain('ip:10.1.0.1');
    expect(open.nodes.find((n) => n.id === 'ip:10.1.0.1')!.asn).toBe(64501);
  });

  it('finds nodes by address, name or AS, case-insensitive', () => {
    const g = shownGraph(two, none);
    expect([...searchMatches(g, '10.2.0')]).toEqual(['ip:10.2.0.1']);
    expect([...searchMatches(g, 'BRANCH')]).toEqual(['ip:10.2.0.1']);
    expect([...searchMatches(g, 'as64501')].sort()).toEqual(['ip:10.1.0.1', 'ip:10.1.0.2']);
    expect(searchMatches(g, '  ').size).toBe(0);
  });
});
