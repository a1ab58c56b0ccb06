import { describe, expect, it } from 'vitest';
import type { DataPoint, Outage } from '../../../../server/contract/data';
import { gapAt, gapMarkerTitle, gapReason, GapReason, gapThresholdMs, timelineColumns, timelineGaps } from './timelineGaps';

const T0 = Date.UTC(2026, 10, 29, 2, 0, 0);
const s = (sec: number) => T0 + sec * 1000;
const iso = (sec: number) => new Date(s(sec)).toISOString();

/** A bucket of one round at `sec` (1 s buckets), or a marker round's (no samples, IsStartTrace). */
function point(sec: number, avg: number | null = 10, marker = false): DataPoint {
  return {
    Period: iso(sec),
    IsStartTrace: marker,
    UnitNumber: sec,
    FirstLatency: avg,
    LatencyMinimum: avg,
    LatencyMaximum: avg,
    Jitter: null,
    AverageLatency: avg,
    LatencyCount: marker ? 0 : 1,
    HasNotParticipating: false,
    LostPacketCount: 0,
    SampleSetIndexStart: 0,
    SampleSetIndexEnd: 0,
    RouteBitMask: 0,
    RouteLength: 3,
    RouteHostLatencies: [],
    RouteHostSentCount: [],
    RouteHostLostCount: [],
  };
}
/** Rounds every 2.5 s from `from` to `to` (seconds, bucket starts rounded down). */
const rounds = (from: number, to: number) => {
  const out: DataPoint[] = [];
  for (let t = from; t <= to; t += 2.5) out.push(point(Math.floor(t)));
  return out;
};
const outage = (reason: Outage['Reason'], from: number, to: number | null): Outage => ({ Reason: reason, Start: iso(from), End: to === null ? null : iso(to) });
const measured = (v: number | null) => (v !== null && v >= 0 ? v : null);
const loss = (lost: number, sent: number) => (lost / sent) * 100;

describe('timeline gaps', () => {
  it('finds no gap in a trace that reports every round, nor for one late round', () => {
    expect(timelineGaps(rounds(0, 60), 1000, 2500, [], s(100))).toEqual([]);
    const oneMissing = rounds(0, 60).filter((p) => p.Period !== iso(30));
    expect(timelineGaps(oneMissing, 1000, 2500, [], s(100))).toEqual([]);
  });

  it('marks the stretch without samples while the agent was offline (killed for 62 s)', () => {
    const points = [...rounds(0, 30), ...rounds(92.5, 120)];
    const gaps = timelineGaps(points, 1000, 2500, [outage('AgentOffline', 31, 93)], s(130));
    expect(gaps).toEqual([{ startMs: s(31), endMs: s(92), reason: GapReason.AgentOffline }]);
  });

  it('names a pause by its stop/start marker rounds, and a server outage over an agent one', () => {
    const paused = [...rounds(0, 30), point(31, null, true), point(80, null, true), ...rounds(80, 100)];
    expect(timelineGaps(paused, 1000, 2500, [], s(130))[0].reason).toBe(GapReason.Paused);
    const down = [...rounds(0, 30), ...rounds(200, 220)];
    const outages = [outage('AgentOffline', 31, 205), outage('ServerDown', 32, 199)];
    expect(timelineGaps(down, 1000, 2500, outages, s(300))[0].reason).toBe(GapReason.ServerDown);
  });

  it('says "No samples" when nothing recorded explains the gap; an open outage lasts until now', () => {
    const points = [...rounds(0, 30), ...rounds(100, 110)];
    expect(timelineGaps(points, 1000, 2500, [], s(200))[0].reason).toBe(GapReason.NoSamples);
    expect(gapReason(s(31), s(100), [outage('AgentOffline', 20, null)], false, s(200))).toBe(GapReason.AgentOffline);
    // An outage that touches a pause briefly does not rename it.
    expect(gapReason(s(31), s(100), [outage('AgentOffline', 90, 95)], true, s(200))).toBe(GapReason.Paused);
  });

  it('reads an older stretch of longer rounds by their own spacing, not as a row of gaps', () => {
    const slow = [0, 60, 120, 180].map((sec) => point(sec));
    expect(timelineGaps([...slow, ...rounds(182.5, 200)], 1000, 2500, [], s(300))).toEqual([]);
    expect(timelineGaps([...slow, ...rounds(400, 410)], 1000, 2500, [], s(500))).toHaveLength(1);
  });

  it('with long buckets, a gap is at least one whole empty bucket', () => {
    expect(gapThresholdMs(2500, 60_000)).toBe(120_000);
    const minute = (m: number) => point(m * 60);
    expect(timelineGaps([minute(0), minute(1), minute(2)], 60_000, 2500, [], s(1000))).toEqual([]);
    expect(timelineGaps([minute(0), minute(1), minute(4)], 60_000, 2500, [], s(1000))).toEqual([{ startMs: s(120), endMs: s(240), reason: GapReason.NoSamples }]);
  });
});

describe('timeline columns', () => {
  it('puts a null row in each gap so uPlot breaks the line there, in time order', () => {
    const points = [...rounds(0, 5), point(31, null, true), ...rounds(92.5, 95)];
    const gaps = timelineGaps(points, 1000, 2500, [outage('AgentOffline', 6, 93)], s(130));
    const [xs, min, max, avg, pl] = timelineColumns(points, 1000, gaps, measured, loss);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    const gapRow = xs.indexOf(gaps[0].startMs);
    expect(gapRow).toBeGreaterThan(0);
    expect([min[gapRow], max[gapRow], avg[gapRow], pl[gapRow]]).toEqual([null, null, null, null]);
    // Every measured bucket keeps its value: the nulls are only where nothing was measured.
    expect(avg.filter((v) => v !== null)).toHaveLength(points.filter((p) => p.LatencyCount > 0).length);
  });

  it('has no null row without gaps (the line is continuous where rounds are)', () => {
    const points = rounds(0, 20);
    const [, , , avg] = timelineColumns(points, 1000, [], measured, loss);
    expect(avg.every((v) => v === 10)).toBe(true);
  });
});

describe('gap marker', () => {
  it('finds the gap under the pointer and says what happened', () => {
    const gap = { startMs: s(31), endMs: s(92), reason: GapReason.AgentOffline };
    expect(gapAt([gap], s(50))).toBe(gap);
    expect(gapAt([gap], s(92))).toBeUndefined();
    expect(gapMarkerTitle(gap, (ms) => new Date(ms).toISOString().slice(11, 19))).toBe('Agent offline: no samples from 02:00:31 to 02:01:32');
  });
});
