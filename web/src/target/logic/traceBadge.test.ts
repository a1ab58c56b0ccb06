import { describe, expect, it } from 'vitest';
import { traceBadge } from './traceBadge';

const base = { running: true, agentOffline: false, agentName: 'Branch office', intervalMs: 2500 };

describe('trace badge', () => {
  it('says tracing, with the interval, while the trace runs on a connected agent', () => {
    expect(traceBadge(base)).toMatchObject({ text: 'Tracing every 2.5 s', tone: 'running' });
  });
  it('says the agent is offline and the trace waits, not "Tracing", when its agent is gone', () => {
    const b = traceBadge({ ...base, agentOffline: true });
    expect(b).toMatchObject({ text: 'Agent offline, waiting', tone: 'waiting' });
    expect(b.title).toContain('Branch office is offline');
  });
  it('says Paused for a paused trace, whatever its agent', () => {
    expect(traceBadge({ ...base, running: false, agentOffline: true })).toMatchObject({ text: 'Paused', tone: 'paused' });
  });
});
