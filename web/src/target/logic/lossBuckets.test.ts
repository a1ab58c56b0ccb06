import { describe, expect, it } from 'vitest';
import { LossBucketRounds, lossBucketAt, lossBucketPeriodMs, lossBuckets } from './lossBuckets';

const t0 = Date.UTC(2026, 10, 29, 10, 0, 0);
/** One-second latency buckets of a trace every `intervalMs`, `lostAt(k)` saying whether round k was lost. */
function rounds(n: number, intervalMs: number, lostAt: (k: number) => boolean, startMs = t0) {
  const byStart = new Map<number, { Period: string; LatencyCount: number; LostPacketCount: number }>();
  for (let k = 0; k < n; k++) {
    const s = Math.floor((startMs + k * intervalMs) / 1000) * 1000;
    const p = byStart.get(s) ?? { Period: new Date(s).toISOString(), LatencyCount: 0, LostPacketCount: 0 };
    p.LatencyCount += 1;
    p.LostPacketCount += lostAt(k) ? 1 : 0;
    byStart.set(s, p);
  }
  return [...byStart.values()];
}

describe('lossBucketPeriodMs', () => {
  it('holds ten rounds, in whole latency buckets', () => {
    expect(LossBucketRounds).toBe(10);
    expect(lossBucketPeriodMs(1000, 2500)).toBe(25_000);
    expect(lossBucketPeriodMs(3000, 2500)).toBe(27_000);
    expect(lossBucketPeriodMs(1000, 1000)).toBe(10_000);
    // A week on screen: the latency bucket already holds hundreds of rounds.
    expect(lossBucketPeriodMs(864_000, 2500)).toBe(864_000);
  });
});

describe('lossBuckets', () => {
  it('draws one lost sample on a 10-minute graph as a 10% bucket, not a 100% spike', () => {
    const points = rounds(240, 2500, (k) => k === 100);
    const buckets = lossBuckets(points, 1000, 2500);
    expect(Math.max(...buckets.map((b) => b.percent))).toBeCloseTo(10, 5);
    expect(buckets.filter((b) => b.lost > 0)).toHaveLength(1);
    // Every round counted once.
    expect(buckets.reduce((s, b) => s + b.sent, 0)).toBe(240);
  });

  it('reads every fifth round lost as 20% in every bucket', () => {
    const buckets = lossBuckets(rounds(240, 2500, (k) => k % 5 === 0), 1000, 2500);
    for (const b of buckets) expect(b.percent).toBeCloseTo(20, 0);
  });

  it('keeps a real outage at 100%', () => {
    const buckets = lossBuckets(rounds(100, 1000, (k) => k >= 40 && k < 70), 1000, 1000);
    expect(buckets.filter((b) => b.percent === 100)).toHaveLength(3);
  });

  it('folds the open bucket at the live edge into the one before it', () => {
    // 10:00:00 + 12 rounds of 1 s: bucket 10:00:00-10:00:10 has 10, the open one 2 (one lost).
    const buckets = lossBuckets(rounds(12, 1000, (k) => k === 11), 1000, 1000);
    expect(buckets).toHaveLength(1);
    expect(buckets[0]).toMatchObject({ sent: 12, lost: 1, startMs: t0, endMs: t0 + 12_000 });
  });

  it('never joins buckets across a gap', () => {
    const before = rounds(20, 1000, () => false);
    const after = rounds(3, 1000, () => true, t0 + 600_000);
    const buckets = lossBuckets([...before, ...after], 1000, 1000);
    expect(buckets.map((b) => b.percent)).toEqual([0, 0, 100]);
    expect(buckets[2].startMs).toBe(t0 + 600_000);
  });

  it('covers only the time with samples and skips buckets that sent nothing', () => {
    const points = [
      { Period: new Date(t0 + 3000).toISOString(), LatencyCount: 10, LostPacketCount: 2 },
      { Period: new Date(t0 + 4000).toISOString(), LatencyCount: 0, LostPacketCount: 0 },
    ];
    expect(lossBuckets(points, 1000, 100)).toEqual([{ startMs: t0 + 3000, endMs: t0 + 4000, sent: 10, lost: 2, percent: 20 }]);
  });
});

describe('lossBucketAt', () => {
  it('finds the bucket covering a time', () => {
    const buckets = lossBuckets(rounds(240, 2500, () => false), 1000, 2500);
    expect(lossBucketAt(buckets, t0 + 30_000)).toBe(buckets[1]);
    expect(lossBucketAt(buckets, t0 - 1)).toBeUndefined();
    expect(lossBucketAt([], t0)).toBeUndefined();
  });
});
