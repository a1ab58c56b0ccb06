import { describe, expect, it } from 'vitest';
import type { DataPoint } from '../../../../server/contract/data';
import { SidekickStatus } from '../../../../server/contract/sidekick';
import { collectedDuration, hasEnoughData, statusColour, targetStatus } from './status';

const now = Date.parse('2026-11-25T05:00:00Z');
const point = (agoMs: number, avg: number | null, sent = 10, lost = 0): DataPoint => ({
  Period: new Date(now - agoMs).toISOString(),
  IsStartTrace: false, UnitNumber: 0, FirstLatency: avg, LatencyMinimum: avg, LatencyMaximum: avg, Jitter: null,
  AverageLatency: avg, LatencyCount: sent, HasNotParticipating: false, LostPacketCount: lost,
  SampleSetIndexStart: 0, SampleSetIndexEnd: 0, RouteBitMask: 0, RouteLength: 0, RouteHostLatencies: [], RouteHostSentCount: [], RouteHostLostCount: [],
});

describe('targetStatus', () => {
  it('is none without samples in the last minute', () => {
    expect(targetStatus([], now)).toBe(SidekickStatus.None);
    expect(targetStatus([point(120_000, 5)], now)).toBe(SidekickStatus.None);
  });
  it('grades latency by the Warn and Bad thresholds', () => {
    expect(targetStatus([point(10_000, 5)], now)).toBe(SidekickStatus.Good);
    expect(targetStatus([point(10_000, 150)], now)).toBe(SidekickStatus.Warn);
    expect(targetStatus([point(10_000, 300)], now)).toBe(SidekickStatus.Bad);
    expect(targetStatus([point(10_000, 60)], now, 50, 80)).toBe(SidekickStatus.Warn);
  });
  it('grades loss, and a target that answers nothing is bad', () => {
    expect(targetStatus([point(10_000, 5, 100, 5)], now)).toBe(SidekickStatus.Warn);
    expect(targetStatus([point(10_000, 5, 100, 30)], now)).toBe(SidekickStatus.Bad);
    expect(targetStatus([point(10_000, null, 10, 10)], now)).toBe(SidekickStatus.Bad);
  });
  it('colours by the spec', () => {
    expect([0, 1, 2, 7].map(statusColour)).toEqual(['#96cd73', '#ffc251', '#fb6351', '#fb6351']);
  });
});

describe('collected duration', () => {
  it('says minutes, hours and days', () => {
    expect(collectedDuration(null, now)).toBe('0 minutes');
    expect(collectedDuration(new Date(now - 61_000).toISOString(), now)).toBe('1 minute');
    expect(collectedDuration(new Date(now - 65 * 60_000).toISOString(), now)).toBe('1 hour 5 minutes');
    expect(collectedDuration(new Date(now - 2 * 1440 * 60_000).toISOString(), now)).toBe('2 days');
  });
  it('needs 10 minutes of data', () => {
    expect(hasEnoughData(new Date(now - 9 * 60_000).toISOString(), now, 600_000)).toBe(false);
    expect(hasEnoughData(new Date(now - 10 * 60_000).toISOString(), now, 600_000)).toBe(true);
  });
});
