import { describe, expect, it } from 'vitest';
import {
  formatDurationShort,
  formatTimeSpanText,
  parseDurationText,
  parseNumberUnitDuration,
  parseTimeSpanText,
  parseTraceIntervalText,
} from './duration';
import { FocusChoiceLabels, TraceIntervalChoicesMs } from './constants';

describe('parseNumberUnitDuration', () => {
  it('reads a bare number as seconds', () => {
    expect(parseNumberUnitDuration('2.5')).toBe(2500);
    expect(parseNumberUnitDuration('60')).toBe(60_000);
    expect(parseNumberUnitDuration('.5')).toBe(500);
  });
  it('reads s, m, h, d and longer unit words, with or without a space', () => {
    expect(parseNumberUnitDuration('2.5s')).toBe(2500);
    expect(parseNumberUnitDuration('90 s')).toBe(90_000);
    expect(parseNumberUnitDuration('1m')).toBe(60_000);
    expect(parseNumberUnitDuration('5 min')).toBe(300_000);
    expect(parseNumberUnitDuration('1.5 hours')).toBe(5_400_000);
    expect(parseNumberUnitDuration('2h')).toBe(7_200_000);
    expect(parseNumberUnitDuration('1 D')).toBe(86_400_000);
    expect(parseNumberUnitDuration('250ms')).toBe(250);
  });
  it('rejects what is not "number unit"', () => {
    for (const text of ['', 'abc', '5 weeks', '-5', '1m30s', '5 s s', '1.2.3']) {
      expect(parseNumberUnitDuration(text)).toBeNull();
    }
  });
});

describe('time-span text', () => {
  it('reads days:hours:minutes:seconds with an optional fraction', () => {
    expect(parseTimeSpanText('1:02:03:04.5')).toBe(86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4500);
    expect(parseTimeSpanText('0:00:01:30')).toBe(90_000);
  });
  it('right-aligns shorter forms: the last field is seconds', () => {
    expect(parseTimeSpanText('1:30')).toBe(90_000);
    expect(parseTimeSpanText('2:00:00')).toBe(7_200_000);
  });
  it('rejects other text', () => {
    for (const text of ['', '1', '1:2:3:4:5', 'a:b', '1:30.5.5', '1::2']) expect(parseTimeSpanText(text)).toBeNull();
  });
  it('formats as d:hh:mm:ss[.fff] and reads back', () => {
    expect(formatTimeSpanText(90_000)).toBe('0:00:01:30');
    expect(formatTimeSpanText(86_400_000 + 4500)).toBe('1:00:00:04.5');
    for (const ms of [0, 1, 999, 61_001, 604_800_000, 123_456_789]) {
      expect(parseTimeSpanText(formatTimeSpanText(ms))).toBe(ms);
    }
  });
});

describe('parseDurationText and parseTraceIntervalText', () => {
  it('takes time-span text when it has a colon', () => {
    expect(parseDurationText('0:0:5:0')).toBe(300_000);
    expect(parseDurationText('5 min')).toBe(300_000);
  });
  it('accepts intervals the server accepts (100 ms to 24 h)', () => {
    expect(parseTraceIntervalText('2.5')).toBe(2500);
    expect(parseTraceIntervalText('1m')).toBe(60_000);
    expect(parseTraceIntervalText('100ms')).toBe(100);
    expect(parseTraceIntervalText('1d')).toBe(86_400_000);
    expect(parseTraceIntervalText('0')).toBeNull();
    expect(parseTraceIntervalText('50ms')).toBeNull();
    expect(parseTraceIntervalText('2d')).toBeNull();
    expect(parseTraceIntervalText('fast')).toBeNull();
  });
});

describe('formatDurationShort', () => {
  it('switches to minutes at 2 minutes, hours at 2 hours, days at 2 days', () => {
    expect(formatDurationShort(119_999)).toBe('120 s');
    expect(formatDurationShort(60_000)).toBe('60 s');
    expect(formatDurationShort(120_000)).toBe('2 min');
    expect(formatDurationShort(3_600_000)).toBe('60 min');
    expect(formatDurationShort(7_200_000)).toBe('2 h');
    expect(formatDurationShort(86_400_000)).toBe('24 h');
    expect(formatDurationShort(172_800_000)).toBe('2 days');
    expect(formatDurationShort(604_800_000)).toBe('7 days');
    expect(formatDurationShort(2500)).toBe('2.5 s');
  });
  it('writes the interval and focus choices so they read back', () => {
    for (const ms of TraceIntervalChoicesMs) expect(parseNumberUnitDuration(formatDurationShort(ms))).toBe(ms);
    expect(TraceIntervalChoicesMs.map(formatDurationShort)).toEqual(['1 s', '2.5 s', '5 s', '10 s', '15 s', '30 s', '60 s']);
    const periods = FocusChoiceLabels.slice(0, 6).map((label) => parseNumberUnitDuration(label)!);
    expect(periods.map(formatDurationShort)).toEqual(FocusChoiceLabels.slice(0, 6));
  });
});
