import { describe, expect, it } from 'vitest';
import { figuresOf } from './figures';

const sub = { AccountName: 'Acme', Plan: 'Team', EntitledTraces: 10, ActiveTraces: 5, EntitledAgents: 4, OnlineAgents: 1, OfflineAgents: 1, PendingAgents: 1 };

describe('subscription figures', () => {
  it('match the Agents Overview cards', () => {
    expect(figuresOf(sub)).toEqual({
      tracesText: '5 of 10 Active Targets',
      tracePercent: 50,
      agentsText: '1 online, 1 offline, 1 pending',
      agentPercent: 33,
      entitledAgentsText: '3 of 4 agents',
    });
  });

  it('has no division by zero and says when agents are not limited', () => {
    const f = figuresOf({ ...sub, EntitledTraces: 0, ActiveTraces: 0, EntitledAgents: null, OnlineAgents: 0, OfflineAgents: 0, PendingAgents: 0 });
    expect(f.tracePercent).toBe(0);
    expect(f.agentPercent).toBe(0);
    expect(f.entitledAgentsText).toBe('0 agents (no limit)');
  });
});
