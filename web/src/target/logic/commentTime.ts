// The comment editor's time field (spec 2 section 5): natural dates and relative offsets
// such as "yesterday at 6", "10 minutes ago", "now", "today at 14:30", "2026-11-20 08:15",
// "last monday", "nov 20 6pm". Parsed on blur, in the browser's local time zone.
//
// Rules (the spec gives the first two; the rest are decisions, see docs/target-window-logic.md):
// - Input ending in "ago" or "now" is relative to now; anything else is read against the
//   reference time (the time the placeholder shows; usually the graph point clicked).
// - Never forward-dated. Where the text leaves the day open (a time alone, a weekday, a date
//   without a year) the most recent matching time not after now is taken (so "23:00" typed at
//   14:00 means yesterday 23:00). Where the text names the moment exactly ("today at 23:00",
//   "2027-01-01", "in 5 minutes" is not accepted at all) and it lies after now, the parse is
//   rejected rather than clamped: silently moving a comment to another time would mislabel
//   the graph, while an error lets the user correct the text.
// - A time without am/pm is read on the 24-hour clock ("6" is 06:00).
// - Day words without a time (today, yesterday, a weekday) keep the base's clock time;
//   a calendar date without a time means its midnight.

export type CommentTimeResult =
  | { ok: true; timeMs: number }
  | { ok: false; reason: 'empty' | 'unreadable' | 'future'; error: string };

export const CommentTimeFutureError = "The comment time can't be in the future.";
export function commentTimeUnreadableError(text: string): string {
  return `Can't read "${text}" as a time. Try "10 minutes ago", "yesterday at 6" or "2026-11-20 08:15".`;
}

const SecondMs = 1000;
const MinuteMs = 60 * SecondMs;
const HourMs = 60 * MinuteMs;

/** Units of a relative offset: fixed lengths, or calendar steps (days and longer). */
type OffsetUnit = { ms: number } | { days: number } | { months: number };
const OffsetUnits: ReadonlyArray<[RegExp, OffsetUnit]> = [
  [/^(s|secs?|seconds?)$/, { ms: SecondMs }],
  [/^(m|mins?|minutes?)$/, { ms: MinuteMs }],
  [/^(h|hrs?|hours?)$/, { ms: HourMs }],
  [/^(d|days?)$/, { days: 1 }],
  [/^(w|wks?|weeks?)$/, { days: 7 }],
  [/^(months?)$/, { months: 1 }],
  [/^(y|yrs?|years?)$/, { months: 12 }],
];

const Weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WeekdayPattern = '(sunday|sun|monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu|friday|fri|saturday|sat)';
const Months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MonthPattern =
  '(january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sept|sep|october|oct|november|nov|december|dec)\\.?';

function weekdayIndex(word: string): number {
  return Weekdays.findIndex((day) => day.startsWith(word.slice(0, 3)));
}
function monthIndex(word: string): number {
  return Months.indexOf(word.slice(0, 3));
}

/** What the text says about the day. "open" days step back by `step` until not after now. */
type DaySpec =
  | { kind: 'relative'; daysBack: number } // today, yesterday: keeps the base clock time
  | { kind: 'weekday'; weekday: number; last: boolean }
  | { kind: 'date'; year: number | null; month: number; day: number };

interface TimeSpec {
  hour: number;
  minute: number;
  second: number;
}

/** Finds and removes the day part of the text. */
function takeDay(text: string): { day: DaySpec | null; rest: string } | null {
  const patterns: Array<[RegExp, (m: RegExpExecArray) => DaySpec | null]> = [
    [/\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/, (m) => ({ kind: 'date', year: +m[1], month: +m[2] - 1, day: +m[3] })],
    [
      new RegExp(`\\b${MonthPattern}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:\\s+(\\d{4})\\b)?`),
      (m) => ({ kind: 'date', year: m[3] ? +m[3] : null, month: monthIndex(m[1]), day: +m[2] }),
    ],
    [
      new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MonthPattern}(?:\\s+(\\d{4})\\b)?`),
      (m) => ({ kind: 'date', year: m[3] ? +m[3] : null, month: monthIndex(m[2]), day: +m[1] }),
    ],
    [/\btoday\b/, () => ({ kind: 'relative', daysBack: 0 })],
    [/\byesterday\b/, () => ({ kind: 'relative', daysBack: 1 })],
    [new RegExp(`\\b(last\\s+)?${WeekdayPattern}\\b`), (m) => ({ kind: 'weekday', weekday: weekdayIndex(m[2]), last: !!m[1] })],
  ];
  for (const [pattern, make] of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const day = make(match);
    if (!day) return null;
    return { day, rest: (text.slice(0, match.index) + ' ' + text.slice(match.index + match[0].length)).trim() };
  }
  return { day: null, rest: text };
}

/** Reads what is left after the day: empty, or a time of day with an optional "at". */
function readTime(rest: string): TimeSpec | null | 'none' {
  const text = rest.replace(/^at\s+/, '').replace(/\s+at$/, '').trim();
  if (text === '') return rest === '' ? 'none' : null;
  if (text === 'noon') return { hour: 12, minute: 0, second: 0 };
  if (text === 'midnight') return { hour: 0, minute: 0, second: 0 };
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(text);
  if (!m) return null;
  let hour = +m[1];
  const minute = m[2] ? +m[2] : 0;
  const second = m[3] ? +m[3] : 0;
  if (minute > 59 || second > 59) return null;
  if (m[4]) {
    if (hour < 1 || hour > 12) return null;
    const pm = m[4].startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (hour > 23) {
    return null;
  }
  return { hour, minute, second };
}

/** A local date-time, or null when the fields do not name a real day (Feb 30). */
function localTime(year: number, month: number, day: number, time: TimeSpec): number | null {
  const d = new Date(year, month, day, time.hour, time.minute, time.second, 0);
  if (d.getFullYear() !== year || d.getMonth() !== month || d.getDate() !== day) return null;
  return d.getTime();
}

/** The time at clock on the calendar day `daysBack` days before base's day (month ends handled). */
function onDayBefore(base: Date, daysBack: number, clock: TimeSpec): number {
  const day = new Date(base.getFullYear(), base.getMonth(), base.getDate() - daysBack, 12);
  return localTime(day.getFullYear(), day.getMonth(), day.getDate(), clock)!;
}

function daysBefore(ms: number, days: number): number {
  const d = new Date(ms);
  d.setDate(d.getDate() - days);
  return d.getTime();
}

const OffsetPart = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]+)/g;
const OffsetBody = /^(?:\s*(?:\d+(?:\.\d+)?|\.\d+)\s*[a-z]+)+\s*$/;

/** "2 hours 30 minutes", "1h30m", "an hour", "1.5 days": that long before now, or null. */
function subtractOffset(body: string, nowMs: number): number | null {
  const normal = body.replace(/\band\b|,/g, ' ').replace(/\ban?\b/g, '1');
  if (!OffsetBody.test(normal)) return null;
  let result = nowMs;
  for (const [, number, word] of normal.matchAll(OffsetPart)) {
    const amount = Number(number);
    const unit = OffsetUnits.find(([pattern]) => pattern.test(word))?.[1];
    if (!unit) return null;
    if ('ms' in unit) {
      result -= amount * unit.ms;
    } else if ('days' in unit) {
      const total = amount * unit.days;
      // Whole days step the calendar (a day is 23 or 25 hours across a DST change).
      result = daysBefore(result, Math.trunc(total));
      result -= (total - Math.trunc(total)) * 24 * HourMs;
    } else {
      if (!Number.isInteger(amount)) return null;
      const d = new Date(result);
      d.setMonth(d.getMonth() - amount * unit.months);
      result = d.getTime();
    }
  }
  return result;
}

export interface CommentTimeContext {
  nowMs: number;
  /** The reference time the placeholder shows; defaults to now. */
  referenceMs?: number;
}

/** Reads the comment time field. See the rules at the top of this file. */
export function parseCommentTime(input: string, context: CommentTimeContext): CommentTimeResult {
  const { nowMs } = context;
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return { ok: false, reason: 'empty', error: 'No time entered.' };
  const unreadable = { ok: false, reason: 'unreadable', error: commentTimeUnreadableError(input.trim()) } as const;
  const notFuture = (timeMs: number): CommentTimeResult =>
    timeMs > nowMs ? { ok: false, reason: 'future', error: CommentTimeFutureError } : { ok: true, timeMs };

  if (/^(just |right )?now$/.test(text)) return { ok: true, timeMs: nowMs };
  const ago = /^(.*?)\s*ago$/.exec(text);
  if (ago) {
    const timeMs = subtractOffset(ago[1], nowMs);
    return timeMs === null ? unreadable : notFuture(timeMs);
  }
  if (text.endsWith('now')) return unreadable;

  // ISO 8601 with a zone names an exact instant.
  if (/^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})$/.test(text)) {
    const ms = Date.parse(input.trim().toUpperCase());
    return Number.isNaN(ms) ? unreadable : notFuture(ms);
  }

  const base = new Date(context.referenceMs ?? nowMs);
  const taken = takeDay(text.replace(/(\d)t(\d)/, '$1 $2'));
  if (!taken) return unreadable;
  const time = readTime(taken.rest);
  if (time === null) return unreadable;
  const { day } = taken;
  if (day === null && time === 'none') return unreadable;

  const baseClock: TimeSpec = { hour: base.getHours(), minute: base.getMinutes(), second: base.getSeconds() };
  const at = time === 'none' ? null : time;
  /** Steps an open candidate back until it is not after now. */
  const latestNotAfterNow = (candidate: number | null, stepBack: (ms: number) => number): CommentTimeResult => {
    if (candidate === null) return unreadable;
    let ms = candidate;
    while (ms > nowMs) ms = stepBack(ms);
    return { ok: true, timeMs: ms };
  };

  if (day === null) {
    // A time alone: that time on the base's day, or the day before when that is still ahead.
    const candidate = onDayBefore(base, 0, at!);
    return latestNotAfterNow(candidate, (ms) => daysBefore(ms, 1));
  }
  switch (day.kind) {
    case 'relative': {
      const clock = at ?? { ...baseClock };
      const keepMs = at ? 0 : base.getMilliseconds();
      return notFuture(onDayBefore(base, day.daysBack, clock) + keepMs);
    }
    case 'weekday': {
      const back = (base.getDay() - day.weekday + 7) % 7 || (day.last ? 7 : 0);
      const candidate = onDayBefore(base, back, at ?? baseClock);
      return latestNotAfterNow(candidate, (ms) => daysBefore(ms, 7));
    }
    case 'date': {
      const clock = at ?? { hour: 0, minute: 0, second: 0 };
      if (day.year !== null) {
        const ms = localTime(day.year, day.month, day.day, clock);
        return ms === null ? unreadable : notFuture(ms);
      }
      // No year: this year's date, or an earlier year's while that is still ahead (Feb 29
      // only exists in leap years, so step years until the date is real and past).
      for (let year = base.getFullYear(); year > base.getFullYear() - 9; year--) {
        const ms = localTime(year, day.month, day.day, clock);
        if (ms !== null && ms <= nowMs) return { ok: true, timeMs: ms };
      }
      return unreadable;
    }
  }
}

/** The field's text for a time: local "YYYY-MM-DD HH:mm:ss", which parseCommentTime reads back. */
export function formatCommentTime(timeMs: number): string {
  const d = new Date(timeMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}
