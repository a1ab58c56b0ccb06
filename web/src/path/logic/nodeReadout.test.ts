import { describe, expect, it } from 'vitest';
import { nodeReadout } from './nodeReadout';
import { node } from './fixtures';

describe('hovering a node', () => {
  it('tells the address, network, country, MPLS and every agent crossing it with its figures', () => {
    const r = nodeReadout(
      node('ip:203.0.113.7', {
        Name: 'core1.example.net',
        Asn: 64500,
        AsName: 'EXAMPLE',
        Country: 'DE',
        Mpls: [{ Label: 24001, Exp: 0, BottomOfStack: true, Ttl: 1 }],
        Agents: [
          { SessionId: 1, AgentName: 'Local Machine', Hop: 3, LatencyMs: 12.34, LossPercent: 0, SharePercent: 100 },
          { SessionId: 2, AgentName: 'Branch', Hop: 4, LatencyMs: null, LossPercent: 100, SharePercent: 40 },
        ],
      }),
      (id) => (id === 1 ? 'svc' : ''),
    );
    expect(r.title).toBe('203.0.113.7 (core1.example.net)');
    expect(r.lines).toEqual(['Network: AS64500 EXAMPLE', 'Country: DE', 'MPLS: 24001 exp 0 ttl 1 S']);
    expect(r.agents.map((a) => a.text)).toEqual(['Local Machine → svc: hop 3, 12.3 ms, loss 0.0%', "Branch: hop 4, no answer, loss 100.0%, 40% of the hop's answers"]);
  });

  it('says why loss at a muted node is not loss on the path', () => {
    expect(nodeReadout(node('ip:10.0.0.1', { MutedLoss: 'NotCarriedOn' })).lines[0]).toMatch(/limits its answers/);
  });
});
