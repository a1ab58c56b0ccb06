import { describe, expect, it } from 'vitest';
import { fixedScaleNote, latencyTickText, stepDecimals } from './latencyAxis';

describe('latency tick labels', () => {
  it('has the decimals the step needs, so sub-millisecond ticks do not read 0.0', () => {
    expect(stepDecimals(10)).toBe(0);
    expect(stepDecimals(1)).toBe(0);
    expect(stepDecimals(0.5)).toBe(1);
    expect(stepDecimals(0.02)).toBe(2);
    expect(stepDecimals(0.005)).toBe(3);
    expect(stepDecimals(0.00001)).toBe(4);
    expect(latencyTickText(0.03, 0.01)).toBe('0.03');
    expect(latencyTickText(0.06000000001, 0.02)).toBe('0.06');
    expect(latencyTickText(1.5, 0.5)).toBe('1.5');
    expect(latencyTickText(40, 20)).toBe('40');
    expect(latencyTickText(0, 0.01)).toBe('0.00');
  });
});

describe('fixedScaleNote', () => {
  it('says the scale is fixed when the latency on screen is too small to see on it', () => {
    expect(fixedScaleNote(100, 0.05)).toBe('Scale fixed at 100 ms');
    expect(fixedScaleNote(100, 2.9)).toBe('Scale fixed at 100 ms');
  });
  it('says nothing on an automatic scale, with nothing measured, or when the line is visible', () => {
    expect(fixedScaleNote(null, 0.05)).toBeNull();
    expect(fixedScaleNote(100, 0)).toBeNull();
    expect(fixedScaleNote(100, 3)).toBeNull();
  });
});
