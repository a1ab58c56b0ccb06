import { describe, expect, it } from 'vitest';
import { bucketIndexAt, hoverReadoutText } from './hoverReadout';

const at = (h: number, m: number, s: number) => new Date(2026, 10, 24, h, m, s).getTime();

describe('bucketIndexAt', () => {
  const centres = [at(10, 0, 0) + 500, at(10, 0, 1) + 500, at(10, 0, 5) + 500];
  it('finds the bucket covering the cursor', () => {
    expect(bucketIndexAt(centres, 1000, at(10, 0, 0))).toBe(0);
    expect(bucketIndexAt(centres, 1000, at(10, 0, 1) + 999)).toBe(1);
    expect(bucketIndexAt(centres, 1000, at(10, 0, 5) + 10)).toBe(2);
  });
  it('answers -1 between buckets and outside the data, never the nearest sample', () => {
    expect(bucketIndexAt(centres, 1000, at(10, 0, 3))).toBe(-1);
    expect(bucketIndexAt(centres, 1000, at(9, 50, 0))).toBe(-1);
    expect(bucketIndexAt(centres, 1000, at(10, 10, 0))).toBe(-1);
    expect(bucketIndexAt([], 1000, at(10, 0, 0))).toBe(-1);
  });
});

describe('hoverReadoutText', () => {
  it('shows the cursor time, not a sample time', () => {
    expect(hoverReadoutText(at(9, 58, 7) + 400, null)).toBe('09:58:07  no data');
    expect(hoverReadoutText(at(10, 0, 1) + 900, { avgMs: 12.34, lossPercent: null })).toBe('10:00:01  avg 12.3 ms  loss 0%');
    expect(hoverReadoutText(at(23, 0, 0), { avgMs: null, lossPercent: 33.3 })).toBe('23:00:00  avg –  loss 33%');
  });
  it('says "no data" on a bucket that measured nothing, and names a gap (issue 40 item 2)', () => {
    expect(hoverReadoutText(at(10, 0, 0), { avgMs: null, lossPercent: null })).toBe('10:00:00  no data');
    expect(hoverReadoutText(at(10, 0, 0), null, 'Agent offline')).toBe('10:00:00  Agent offline, no data');
  });
});
