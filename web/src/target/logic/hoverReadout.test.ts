import { describe, expect, it } from 'vitest';
import { hoverReadoutText, lossShareText, nearestSampleIndex, readoutBucketAt } from './hoverReadout';

const at = (h: number, m: number, s: number) => new Date(2026, 10, 24, h, m, s).getTime();

describe('nearestSampleIndex', () => {
  // One-second buckets of a 2.5 s trace: most buckets are empty, x values are bucket centres.
  const xs = [at(10, 0, 0) + 500, at(10, 0, 2) + 500, at(10, 0, 5) + 500, at(10, 0, 7) + 500];
  const all = () => true;
  it('snaps to the nearest bucket with samples between them (it used to say "no data" here)', () => {
    expect(nearestSampleIndex(xs, all, at(10, 0, 1), 5000)).toBe(0);
    expect(nearestSampleIndex(xs, all, at(10, 0, 1) + 600, 5000)).toBe(1);
    expect(nearestSampleIndex(xs, all, at(10, 0, 4) + 100, 5000)).toBe(2);
    expect(nearestSampleIndex(xs, all, at(10, 0, 7) + 500, 5000)).toBe(3);
  });
  it('skips rows without samples (a gap\'s null row)', () => {
    expect(nearestSampleIndex(xs, (i) => i !== 1, at(10, 0, 3) + 600, 5000)).toBe(2);
    expect(nearestSampleIndex(xs, () => false, at(10, 0, 2), 5000)).toBe(-1);
  });
  it('reaches no further than the limit, so it never names a sample far away', () => {
    expect(nearestSampleIndex(xs, all, at(10, 0, 20), 5000)).toBe(-1);
    expect(nearestSampleIndex(xs, all, at(9, 59, 50), 5000)).toBe(-1);
    expect(nearestSampleIndex([], all, at(10, 0, 0), 5000)).toBe(-1);
  });
  it('gives a value at every position of a 2.5 s trace', () => {
    const centres = Array.from({ length: 100 }, (_, k) => Math.floor((at(10, 0, 0) + k * 2500) / 1000) * 1000 + 500);
    let misses = 0;
    for (let t = centres[0]; t <= centres[99]; t += 100) if (nearestSampleIndex(centres, all, t, 5000) < 0) misses++;
    expect(misses).toBe(0);
  });
});

describe('hoverReadoutText', () => {
  it('names the time of the bucket it snapped to, with sub-millisecond digits', () => {
    expect(hoverReadoutText(at(10, 0, 1) + 900, { startMs: at(10, 0, 2), avgMs: 0.034, lossPercent: 20 })).toBe('10:00:02  avg 0.03 ms  loss 20%');
    expect(hoverReadoutText(at(10, 0, 1), { startMs: at(10, 0, 1), avgMs: 12.34, lossPercent: null })).toBe('10:00:01  avg 12.3 ms  loss 0%');
    expect(hoverReadoutText(at(23, 0, 0), { startMs: at(23, 0, 0), avgMs: null, lossPercent: 33.3 })).toBe('23:00:00  avg –  loss 33%');
  });
  it('says "no data" at the cursor time where nothing is near, and names a gap (issue 40 item 2)', () => {
    expect(hoverReadoutText(at(9, 58, 7) + 400, null)).toBe('09:58:07  no data');
    expect(hoverReadoutText(at(10, 0, 0), { startMs: at(10, 0, 0), avgMs: null, lossPercent: null })).toBe('10:00:00  no data');
    expect(hoverReadoutText(at(10, 0, 0), null, 'Agent offline')).toBe('10:00:00  Agent offline, no data');
  });
});

describe('lossShareText', () => {
  it('rounds the share, and never shows a loss as 0%', () => {
    expect(lossShareText(0)).toBe('0%');
    expect(lossShareText(0.2)).toBe('<1%');
    expect(lossShareText(19.6)).toBe('20%');
  });
});

describe('readoutBucketAt', () => {
  const t = at(10, 0, 0);
  // Centres of 1 s buckets; the second's rounds were all lost (no average, loss 100%); a gap's null row last.
  const columns = [
    [t + 500, t + 2500, t + 5500, t + 6000],
    [0.02, null, 0.03, null],
    [0.04, null, 0.05, null],
    [0.03, null, 0.04, null],
    [null, 100, null, null],
  ] as const;
  const share = (startMs: number) => (startMs < t + 5000 ? 50 : null);
  it('names the nearest bucket, its start, average and the loss bucket\'s share', () => {
    expect(readoutBucketAt(columns, 1000, t + 900, 5000, share)).toEqual({ startMs: t, avgMs: 0.03, lossPercent: 50 });
    expect(readoutBucketAt(columns, 1000, t + 5200, 5000, share)).toEqual({ startMs: t + 5000, avgMs: 0.04, lossPercent: null });
  });
  it('counts a bucket whose rounds were all lost as one with samples', () => {
    expect(readoutBucketAt(columns, 1000, t + 2400, 5000, share)).toEqual({ startMs: t + 2000, avgMs: null, lossPercent: 50 });
  });
  it('answers null where no bucket with samples is near', () => {
    expect(readoutBucketAt(columns, 1000, t + 60_000, 5000, share)).toBeNull();
  });
});
