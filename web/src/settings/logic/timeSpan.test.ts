import { describe, expect, it } from 'vitest';
import { formatTimeSpan, numericOrPrevious, parseDisplaySpan, parseTimeSpan } from './timeSpan';

describe('time-span text (days:hours:minutes:seconds with fraction)', () => {
  it('reads every form from seconds up to days', () => {
    expect(parseTimeSpan('45')).toBe(45);
    expect(parseTimeSpan('2.5')).toBe(2.5);
    expect(parseTimeSpan('1:30')).toBe(90);
    expect(parseTimeSpan('1:00:00')).toBe(3600);
    expect(parseTimeSpan('2:03:04:05.25')).toBe(2 * 86400 + 3 * 3600 + 4 * 60 + 5.25);
    expect(parseTimeSpan(' 0:00:10 ')).toBe(10);
  });

  it('refuses what is not a time span', () => {
    for (const t of ['', 'abc', '1:2:3:4:5', '1::2', '1:60', '25:00:00:00x', '1:24:00:00', '-5', '1.5:00']) expect(parseTimeSpan(t), t).toBeNull();
  });

  it('writes seconds back as d:hh:mm:ss, fraction kept, and reads its own text', () => {
    expect(formatTimeSpan(90)).toBe('0:00:01:30');
    expect(formatTimeSpan(2 * 86400 + 5.5)).toBe('2:00:00:05.5');
    for (const s of [0, 1, 59.75, 3600, 86399, 100000]) expect(parseTimeSpan(formatTimeSpan(s))).toBe(s);
  });
});

describe('the display parser ("number unit", seconds by default)', () => {
  it('reads s, m, h and d', () => {
    expect(parseDisplaySpan('30')).toBe(30);
    expect(parseDisplaySpan('30 s')).toBe(30);
    expect(parseDisplaySpan('5 m')).toBe(300);
    expect(parseDisplaySpan('1.5h')).toBe(5400);
    expect(parseDisplaySpan('2 D')).toBe(172800);
    expect(parseDisplaySpan('5 weeks')).toBeNull();
    expect(parseDisplaySpan('m')).toBeNull();
  });
});

describe('a numeric input', () => {
  it('reverts to its previous value when the entry is not a number', () => {
    expect(numericOrPrevious('250', 100)).toBe(250);
    expect(numericOrPrevious('fast', 100)).toBe(100);
    expect(numericOrPrevious('', 100)).toBe(100);
    expect(numericOrPrevious('12.5', 100)).toBe(12.5);
  });
});
