import { describe, expect, it } from 'vitest';
import { formatTimeRangeText } from './timeRangeText';

const local = (d: number, h: number, m = 0, s = 0) => new Date(2026, 10, d, h, m, s).getTime();

describe('formatTimeRangeText', () => {
  it('shows clock times within one day, with the length', () => {
    expect(formatTimeRangeText(local(20, 8), local(20, 8, 10))).toBe('08:00:00 - 08:10:00 (10 min)');
    expect(formatTimeRangeText(local(20, 8, 0, 5), local(20, 8, 1, 5))).toBe('08:00:05 - 08:01:05 (60 s)');
  });
  it('adds dates across days', () => {
    expect(formatTimeRangeText(local(18, 12), local(20, 12))).toBe('2026-11-18 12:00:00 - 2026-11-20 12:00:00 (2 days)');
  });
});
