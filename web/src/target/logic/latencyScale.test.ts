import { describe, expect, it } from 'vitest';
import {
  InitialLatencyScaleState,
  maxMeasuredLatency,
  nextAutomaticScale,
  nextLatencyScale,
  roundLatencyAxisMax,
} from './latencyScale';
import { LatencyCode } from '../../../../server/contract/latency';

describe('roundLatencyAxisMax', () => {
  it('below 0.2 rounds up in steps of 0.01', () => {
    expect(roundLatencyAxisMax(0.123)).toBe(0.13);
    expect(roundLatencyAxisMax(0.07)).toBe(0.07);
    expect(roundLatencyAxisMax(0.1999)).toBe(0.2);
  });
  it('below 4 rounds up in steps of 0.1', () => {
    expect(roundLatencyAxisMax(0.2)).toBe(0.2);
    expect(roundLatencyAxisMax(0.21)).toBe(0.3);
    expect(roundLatencyAxisMax(1.01)).toBe(1.1);
    expect(roundLatencyAxisMax(3.95)).toBe(4);
  });
  it('below 10 rounds up to whole numbers', () => {
    expect(roundLatencyAxisMax(4)).toBe(4);
    expect(roundLatencyAxisMax(4.2)).toBe(5);
    expect(roundLatencyAxisMax(9.99)).toBe(10);
  });
  it('otherwise the next ten plus ten', () => {
    expect(roundLatencyAxisMax(10)).toBe(20);
    expect(roundLatencyAxisMax(45)).toBe(60);
    expect(roundLatencyAxisMax(50)).toBe(60);
    expect(roundLatencyAxisMax(252.5)).toBe(270);
  });
});

describe('maxMeasuredLatency', () => {
  it('skips special codes, nulls and non-numbers', () => {
    expect(maxMeasuredLatency([3, LatencyCode.Timeout, null, 12.5, undefined, NaN, LatencyCode.Pending])).toBe(12.5);
    expect(maxMeasuredLatency([LatencyCode.Timeout])).toBe(0);
    expect(maxMeasuredLatency([])).toBe(0);
  });
});

describe('nextAutomaticScale', () => {
  it('is 1.01 x the maximum on screen, rounded, and grows at once', () => {
    expect(nextAutomaticScale(10, 40)).toBe(60); // 40.4 -> next ten 50 + 10
    expect(nextAutomaticScale(10, 9)).toBe(10); // 9.09 -> 10
    expect(nextAutomaticScale(10, 120)).toBe(140);
  });
  it('shrinks only when the drop exceeds 15%', () => {
    expect(nextAutomaticScale(100, 75)).toBe(100); // candidate 90: a 10% drop
    expect(nextAutomaticScale(100, 69)).toBe(80); // candidate 80: a 20% drop
    expect(nextAutomaticScale(0.2, 0.168)).toBe(0.2); // candidate 0.17: exactly 15%, not more
    expect(nextAutomaticScale(0.2, 0.15)).toBe(0.16); // candidate 0.16: a 20% drop
  });
  it('keeps the current maximum when nothing is measured', () => {
    expect(nextAutomaticScale(60, 0)).toBe(60);
  });
});

describe('nextLatencyScale', () => {
  it('starts at 10, automatic', () => {
    expect(InitialLatencyScaleState).toEqual({ maxMs: 10, fixed: false });
  });
  it('uses a configured Scale > 0 as is', () => {
    expect(nextLatencyScale(InitialLatencyScaleState, { configuredScale: 100, maxLatencyOnScreenMs: 400 })).toEqual({ maxMs: 100, fixed: true });
  });
  it('Scale 0 is automatic from the data on screen', () => {
    const first = nextLatencyScale(InitialLatencyScaleState, { configuredScale: 0, maxLatencyOnScreenMs: 23 });
    expect(first).toEqual({ maxMs: 40, fixed: false });
    expect(nextLatencyScale(first, { configuredScale: 0, maxLatencyOnScreenMs: 20 })).toEqual(first); // 20.2 rounds to 40 again
    expect(nextLatencyScale(first, { configuredScale: 0, maxLatencyOnScreenMs: 12 })).toEqual({ maxMs: 30, fixed: false }); // 40 -> 30: a 25% drop
  });
  it('Scale -2 follows the target graph scale, automatic when that is not fixed', () => {
    const input = { configuredScale: -2, maxLatencyOnScreenMs: 5 };
    expect(nextLatencyScale(InitialLatencyScaleState, { ...input, targetGraphScale: 250 })).toEqual({ maxMs: 250, fixed: true });
    expect(nextLatencyScale(InitialLatencyScaleState, { ...input, targetGraphScale: 0 })).toEqual({ maxMs: 6, fixed: false });
    expect(nextLatencyScale(InitialLatencyScaleState, input)).toEqual({ maxMs: 6, fixed: false });
  });
  it('leaving a fixed scale starts over from the data', () => {
    const fixed = { maxMs: 500, fixed: true };
    expect(nextLatencyScale(fixed, { configuredScale: 0, maxLatencyOnScreenMs: 30 })).toEqual({ maxMs: 50, fixed: false });
  });
});
