import { describe, expect, it } from 'vitest';
import { HttpError } from './errors.js';
import { parseOptionalTime, parseTime } from './time.js';

describe('parseTime', () => {
  it('reads ISO texts and epoch milliseconds given as numbers or digits alike', () => {
    const ms = Date.UTC(2023, 10, 14, 22, 13, 20);
    expect(parseTime('2023-11-14T22:13:20Z', 'startTime')).toBe(ms);
    expect(parseTime(ms, 'startTime')).toBe(ms);
    expect(parseTime(String(ms), 'startTime')).toBe(ms);
    expect(parseTime(` ${ms} `, 'startTime')).toBe(ms);
    expect(parseTime('0', 'startTime')).toBe(0);
  });

  it('refuses what is no time, and times a Date cannot hold, naming the field', () => {
    for (const bad of ['', 'soon', '1e400', 'NaN', 8.64e15 + 1, Number.NaN, '99999999999999999999']) {
      expect(() => parseTime(bad, 'endTime')).toThrow(HttpError);
      expect(() => parseTime(bad, 'endTime')).toThrow(/^endTime must be an ISO time or epoch milliseconds/);
    }
  });

  it('gives whole milliseconds, as times are stored (PostgreSQL refuses 1.5 for a BIGINT)', () => {
    expect(parseTime('1.5', 'When')).toBe(2);
    expect(parseTime(1700000000000.4, 'When')).toBe(1700000000000);
    expect(parseTime('2023-11-14T22:13:20.0004Z', 'When')).toBe(Date.UTC(2023, 10, 14, 22, 13, 20));
  });

  it('leaves a time not given to the caller', () => {
    expect(parseOptionalTime(undefined, 'Start')).toBeUndefined();
    expect(parseOptionalTime(null, 'Start')).toBeUndefined();
    expect(parseOptionalTime('', 'Start')).toBeUndefined();
    expect(parseOptionalTime('5', 'Start')).toBe(5);
  });
});
