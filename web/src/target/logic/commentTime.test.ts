import { describe, expect, it } from 'vitest';
import { CommentTimeFutureError, type CommentTimeResult, formatCommentTime, parseCommentTime } from './commentTime';

// Local-time fixtures: expectations are built with the local Date constructor, so the test
// holds in any time zone. Now is Friday 20 November 2026, 15:45:30.250 local.
const now = new Date(2026, 10, 20, 15, 45, 30, 250).getTime();
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => new Date(y, mo - 1, d, h, mi, s, ms).getTime();

function parse(text: string, referenceMs?: number): CommentTimeResult {
  return parseCommentTime(text, { nowMs: now, referenceMs });
}
function timeOf(text: string, referenceMs?: number): number {
  const result = parse(text, referenceMs);
  if (!result.ok) throw new Error(`${text}: ${result.error}`);
  return result.timeMs;
}

it('the fixture is a Friday', () => expect(new Date(now).getDay()).toBe(5));

describe('relative to now', () => {
  it('reads now', () => {
    expect(timeOf('now')).toBe(now);
    expect(timeOf('  Just now ')).toBe(now);
  });
  it('reads offsets ending in ago', () => {
    expect(timeOf('10 minutes ago')).toBe(now - 10 * 60_000);
    expect(timeOf('2 hours ago')).toBe(now - 2 * 3_600_000);
    expect(timeOf('an hour ago')).toBe(now - 3_600_000);
    expect(timeOf('a minute ago')).toBe(now - 60_000);
    expect(timeOf('90 s ago')).toBe(now - 90_000);
    expect(timeOf('1h30m ago')).toBe(now - 90 * 60_000);
    expect(timeOf('2 hours and 15 minutes ago')).toBe(now - 135 * 60_000);
    expect(timeOf('1.5 hours ago')).toBe(now - 90 * 60_000);
  });
  it('steps the calendar for days, weeks, months and years', () => {
    expect(timeOf('3 days ago')).toBe(local(2026, 11, 17, 15, 45, 30, 250));
    expect(timeOf('2 weeks ago')).toBe(local(2026, 11, 6, 15, 45, 30, 250));
    expect(timeOf('1 month ago')).toBe(local(2026, 10, 20, 15, 45, 30, 250));
    expect(timeOf('a year ago')).toBe(local(2025, 11, 20, 15, 45, 30, 250));
  });
  it('"ago" and "now" ignore the reference time', () => {
    const reference = local(2026, 11, 1, 9);
    expect(timeOf('5 minutes ago', reference)).toBe(now - 300_000);
    expect(timeOf('now', reference)).toBe(now);
  });
  it('rejects unreadable offsets', () => {
    for (const text of ['ago', 'some minutes ago', '5 fortnights ago', '1.5 months ago', '5 minutes from now']) {
      expect(parse(text)).toMatchObject({ ok: false, reason: 'unreadable' });
    }
  });
});

describe('day words and times', () => {
  it('reads "yesterday at 6" on the 24-hour clock', () => {
    expect(timeOf('yesterday at 6')).toBe(local(2026, 11, 19, 6));
    expect(timeOf('yesterday at 6pm')).toBe(local(2026, 11, 19, 18));
    expect(timeOf('6:30 am yesterday')).toBe(local(2026, 11, 19, 6, 30));
    expect(timeOf('Yesterday noon')).toBe(local(2026, 11, 19, 12));
  });
  it('reads "today at 14:30"', () => {
    expect(timeOf('today at 14:30')).toBe(local(2026, 11, 20, 14, 30));
    expect(timeOf('today 12am')).toBe(local(2026, 11, 20, 0));
  });
  it('day words alone keep the clock time', () => {
    expect(timeOf('yesterday')).toBe(now - 86_400_000);
    expect(timeOf('today')).toBe(now);
  });
  it('reads weekdays, "last" meaning before today', () => {
    expect(timeOf('last monday')).toBe(local(2026, 11, 16, 15, 45, 30));
    expect(timeOf('monday at 9')).toBe(local(2026, 11, 16, 9));
    expect(timeOf('friday at 8:00')).toBe(local(2026, 11, 20, 8));
    expect(timeOf('last friday at 8:00')).toBe(local(2026, 11, 13, 8));
    expect(timeOf('fri 23:00')).toBe(local(2026, 11, 13, 23)); // today's would be ahead
  });
  it('a time alone is the latest such time not after now', () => {
    expect(timeOf('14:30')).toBe(local(2026, 11, 20, 14, 30));
    expect(timeOf('at 23:15:05')).toBe(local(2026, 11, 19, 23, 15, 5));
    expect(timeOf('6pm')).toBe(local(2026, 11, 19, 18));
  });
});

describe('calendar dates', () => {
  it('reads ISO dates with and without a time', () => {
    expect(timeOf('2026-11-20 08:15')).toBe(local(2026, 11, 20, 8, 15));
    expect(timeOf('2026-11-20T08:15:09')).toBe(local(2026, 11, 20, 8, 15, 9));
    expect(timeOf('2026/3/5')).toBe(local(2026, 3, 5));
    expect(timeOf('2026-11-19T08:15:00Z')).toBe(Date.UTC(2026, 10, 19, 8, 15));
  });
  it('reads month names, taking the latest past year when none is given', () => {
    expect(timeOf('nov 20 6am')).toBe(local(2026, 11, 20, 6));
    expect(timeOf('3rd of March 2025 at 10:00')).toBe(local(2025, 3, 3, 10));
    expect(timeOf('December 24')).toBe(local(2025, 12, 24));
    expect(timeOf('feb 29')).toBe(local(2024, 2, 29));
  });
  it('rejects days that do not exist', () => {
    expect(parse('2026-02-30')).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(parse('2026-11-20 25:00')).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(parse('yesterday at 13pm')).toMatchObject({ ok: false, reason: 'unreadable' });
  });
});

describe('never forward-dated', () => {
  it('rejects a named moment after now', () => {
    expect(parse('today at 23:00')).toEqual({ ok: false, reason: 'future', error: CommentTimeFutureError });
    expect(parse('2027-01-01')).toMatchObject({ ok: false, reason: 'future' });
    expect(parse(new Date(now + 3_600_000).toISOString())).toMatchObject({ ok: false, reason: 'future' });
    expect(timeOf(new Date(now - 3_600_000).toISOString())).toBe(now - 3_600_000);
  });
});

describe('reference time', () => {
  it('reads other input against the reference time', () => {
    const reference = local(2026, 11, 10, 9, 0);
    expect(timeOf('yesterday at 6', reference)).toBe(local(2026, 11, 9, 6));
    expect(timeOf('14:30', reference)).toBe(local(2026, 11, 10, 14, 30));
    expect(timeOf('today', reference)).toBe(reference);
  });
});

describe('month and year ends', () => {
  it('steps back across the start of a month and a year', () => {
    const newYear = local(2027, 1, 1, 0, 30); // Friday 1 January 2027, 00:30
    const at = (text: string) => {
      const r = parseCommentTime(text, { nowMs: newYear });
      if (!r.ok) throw new Error(r.error);
      return r.timeMs;
    };
    expect(at('yesterday at 18:00')).toBe(local(2026, 12, 31, 18));
    expect(at('yesterday')).toBe(local(2026, 12, 31, 0, 30));
    expect(at('last monday at 9')).toBe(local(2026, 12, 28, 9));
    expect(at('06:00')).toBe(local(2026, 12, 31, 6));
    expect(at('3 days ago')).toBe(local(2026, 12, 29, 0, 30));
  });
});

describe('errors and round trip', () => {
  it('tells empty input from unreadable input', () => {
    expect(parse('   ')).toMatchObject({ ok: false, reason: 'empty' });
    expect(parse('whenever')).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(parse('yesterday at')).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(parse('yesterday banana')).toMatchObject({ ok: false, reason: 'unreadable' });
  });
  it('formats local YYYY-MM-DD HH:mm:ss that reads back', () => {
    const t = local(2026, 1, 2, 3, 4, 5);
    expect(formatCommentTime(t)).toBe('2026-01-02 03:04:05');
    expect(timeOf(formatCommentTime(t))).toBe(t);
  });
});
