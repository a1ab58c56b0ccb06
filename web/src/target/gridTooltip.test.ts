import { describe, expect, it } from 'vitest';
import type { TargetRow } from '../../../server/contract/targets';
import { agentTooltip, cellTooltip } from './gridTooltip';

const row = (over: Partial<TargetRow>): TargetRow =>
  ({ UniqueID: '7_h_0', IsRunning: true, HasAlert: false, HubSentinelID: -1, Columns: {}, ...over }) as TargetRow;

describe('grid tooltips', () => {
  it('says whether the agent is online, offline or unknown', () => {
    const agents = [{ id: -1, online: true }, { id: 4, online: false }];
    expect(agentTooltip(-1, agents)).toEqual({ text: 'Agent -1 is online', offline: false });
    expect(agentTooltip(4, agents)).toEqual({ text: 'Agent 4 is offline', offline: true });
    expect(agentTooltip(9, agents)).toEqual({ text: 'Agent 9 not found in agent list', offline: false });
  });

  it('notes a paused or alert-watched target on its own row only', () => {
    expect(cellTooltip(row({ IsRunning: false }), 'DNSName', [])).toBe('This target is paused.');
    expect(cellTooltip(row({ HasAlert: true }), 'IPAddress', [])).toBe('This target is being monitored by 1 or more alerts.');
    expect(cellTooltip(row({ IsRunning: false, HasAlert: true }), 'Hop', [])).toBe(
      'This target is paused.\nThis target is being monitored by 1 or more alerts.',
    );
    expect(cellTooltip(row({}), 'DNSName', [])).toBeNull();
    expect(cellTooltip(row({ UniqueID: '7_h_3', IsRunning: false }), 'DNSName', [])).toBeNull();
    expect(cellTooltip(row({ IsRunning: false }), 'Graph', [])).toBeNull();
    expect(cellTooltip(row({ UniqueID: '7_h_3', HubSentinelID: 4 }), 'Agent', [{ id: 4, online: true }])).toBe('Agent 4 is online');
  });
});

describe('tooltip of loss that is not loss on the path (issue 41 item 1)', () => {
  it('says why on the loss and graph cells of a muted hop, and nothing on its other cells', () => {
    const hop = row({ UniqueID: '7_h_2' });
    expect(cellTooltip(hop, 'PacketLoss', [], 'Silent')).toBe('This router does not answer traceroute probes; later hops do, so the path is not losing packets here.');
    expect(cellTooltip(hop, 'Graph', [], 'Silent')).toContain('later hops do');
    expect(cellTooltip(hop, 'PacketLoss', [], 'NotCarriedOn')).toContain('does not carry on to later hops');
    expect(cellTooltip(hop, 'IPAddress', [], 'Silent')).toBeNull();
    expect(cellTooltip(hop, 'PacketLoss', [])).toBeNull();
  });
});
