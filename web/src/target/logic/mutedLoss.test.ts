import { describe, expect, it } from 'vitest';
import type { TargetRow } from '../../../../server/contract/targets';
import { LatencyCode } from '../../../../server/contract/latency';
import { mutedLossRows } from './mutedLoss';
import { graphCellDrawing } from './graphCell';

const row = (hop: number, ip: string, pl: number, total = 100): TargetRow =>
  ({ UniqueID: `7_h_${hop}`, HopNum: hop, IP: ip, PL: pl, TotalCount: total, Columns: {} }) as unknown as TargetRow;

// Issue 41's network: router 2 never answers, router 3 drops 20% of what it forwards.
const rows = [row(0, '10.0.0.9', 20), row(1, '10.0.0.1', 0), row(2, '', 100), row(3, '10.0.0.3', 20), row(4, '10.0.0.4', 21), row(5, '10.0.0.9', 20)];

describe('mutedLossRows', () => {
  it('mutes a silent router when later hops answer, and nothing else', () => {
    expect(mutedLossRows(rows)).toEqual(new Map([['7_h_2', 'Silent']]));
  });
  it('mutes loss that does not carry on (ICMP rate limiting)', () => {
    const limited = [row(0, '10.0.0.9', 0), row(1, '10.0.0.1', 0), row(2, '10.0.0.2', 35), row(3, '10.0.0.9', 0)];
    expect(mutedLossRows(limited)).toEqual(new Map([['7_h_2', 'NotCarriedOn']]));
  });
  it('keeps the loss of silent hops at the end of an unreachable path', () => {
    const unreachable = [row(0, '10.0.0.9', 100), row(1, '10.0.0.1', 0), row(2, '', 100), row(3, '', 100)];
    expect(mutedLossRows(unreachable).size).toBe(0);
  });
  it('does not judge a hop without samples in the window', () => {
    expect(mutedLossRows([row(0, '10.0.0.9', 0), row(1, '', 0, 0), row(2, '10.0.0.9', 0)]).size).toBe(0);
  });
});

describe('graph cell of a muted hop', () => {
  it('draws no loss bar', () => {
    const scale = { scaleMaxMs: 100, warnMs: 50, badMs: 80 };
    const input = { Minimum: LatencyCode.Timeout, Average: LatencyCode.Timeout, Maximum: LatencyCode.Timeout, PL: 100 };
    expect(graphCellDrawing(input, scale, 300).lossWidthPx).toBe(300);
    expect(graphCellDrawing({ ...input, lossMuted: true }, scale, 300).lossWidthPx).toBe(0);
  });
});
