import { describe, expect, it } from 'vitest';
import { splitterFraction, tickSpacingMs, timelineGraphHeight } from './timelineLayout';

describe('timelineGraphHeight', () => {
  it('is (container - 27 per graph) / graphs', () => {
    expect(timelineGraphHeight(654, 2)).toBe(300);
    expect(timelineGraphHeight(227, 1)).toBe(200);
    expect(timelineGraphHeight(1000, 3)).toBe(306); // (1000 - 81) / 3 = 306.33
  });
  it('is never below 70', () => {
    expect(timelineGraphHeight(300, 5)).toBe(70);
    expect(timelineGraphHeight(0, 1)).toBe(70);
  });
  it('is 0 with no graphs', () => expect(timelineGraphHeight(500, 0)).toBe(0));
});

describe('splitterFraction', () => {
  it('reads a stored fraction, defaulting to 0.7', () => {
    expect(splitterFraction('0.45')).toBe(0.45);
    for (const v of [null, undefined, '', 'abc', '0', '1', '1.5', '-0.2']) expect(splitterFraction(v)).toBe(0.7);
  });
});

describe('tickSpacingMs', () => {
  it('keeps labels apart using steps from 5 s to 36 h', () => {
    expect(tickSpacingMs(60_000, 1000)).toBe(5_000); // 5 s = 83 px
    expect(tickSpacingMs(600_000, 1000)).toBe(60_000); // 30 s would be 50 px
    expect(tickSpacingMs(86_400_000, 1000)).toBe(2 * 3_600_000); // 83 px
    expect(tickSpacingMs(30 * 86_400_000, 1000)).toBe(36 * 3_600_000);
  });
});
