// Durations as people type and read them in the target window: the Trace Interval and
// Focus pickers' custom text, the settings editor's time-span text (d:h:m:s) and the short
// display ("5 s", "30 min", "3 h", "2 days") that switches units at 2 minutes, 2 hours, 2 days.
import {
  MaxTraceIntervalMs,
  MinTraceIntervalMs,
  Ms,
  TimeDisplayDaysFromMs,
  TimeDisplayHoursFromMs,
  TimeDisplayMinutesFromMs,
} from './constants';

/** Unit words accepted after a number; a bare number means seconds. */
const UnitMs: ReadonlyMap<string, number> = new Map([
  ['ms', 1], ['msec', 1], ['millisecond', 1], ['milliseconds', 1],
  ['s', Ms.Second], ['sec', Ms.Second], ['secs', Ms.Second], ['second', Ms.Second], ['seconds', Ms.Second],
  ['m', Ms.Minute], ['min', Ms.Minute], ['mins', Ms.Minute], ['minute', Ms.Minute], ['minutes', Ms.Minute],
  ['h', Ms.Hour], ['hr', Ms.Hour], ['hrs', Ms.Hour], ['hour', Ms.Hour], ['hours', Ms.Hour],
  ['d', Ms.Day], ['day', Ms.Day], ['days', Ms.Day],
]);

const NumberUnitPattern = /^(\d+(?:\.\d*)?|\.\d+)\s*([a-z]*)$/;

/**
 * Reads "number unit" ("2.5", "2.5s", "1m", "90 s", "5 min", "2 days"); no unit means
 * seconds. Returns milliseconds (rounded to whole ms), or null when the text is not one.
 */
export function parseNumberUnitDuration(text: string): number | null {
  const match = NumberUnitPattern.exec(text.trim().toLowerCase());
  if (!match) return null;
  const unit = match[2] === '' ? Ms.Second : UnitMs.get(match[2]);
  if (unit === undefined) return null;
  return Math.round(Number(match[1]) * unit);
}

const TimeSpanPattern = /^(\d+)(?::(\d+)){1,3}(?:\.(\d+))?$/;

/**
 * Reads time-span text days:hours:minutes:seconds with an optional fraction of a second
 * ("1:02:03:04.5"). Fields are right-aligned: the last is always seconds, so "1:30" is
 * 1 minute 30 seconds and "2:00:00" is 2 hours. Returns milliseconds or null.
 */
export function parseTimeSpanText(text: string): number | null {
  const trimmed = text.trim();
  if (!TimeSpanPattern.test(trimmed)) return null;
  const [whole, fraction] = trimmed.split('.');
  const fields = whole.split(':').map(Number).reverse();
  const fieldMs = [Ms.Second, Ms.Minute, Ms.Hour, Ms.Day];
  let total = fields.reduce((sum, value, index) => sum + value * fieldMs[index], 0);
  if (fraction !== undefined) total += Math.round(Number(`0.${fraction}`) * Ms.Second);
  return total;
}

/** Writes milliseconds as time-span text d:hh:mm:ss[.fff], the form parseTimeSpanText reads. */
export function formatTimeSpanText(durationMs: number): string {
  const total = Math.max(0, Math.round(durationMs));
  const days = Math.floor(total / Ms.Day);
  const hours = Math.floor((total % Ms.Day) / Ms.Hour);
  const minutes = Math.floor((total % Ms.Hour) / Ms.Minute);
  const seconds = Math.floor((total % Ms.Minute) / Ms.Second);
  const millis = total % Ms.Second;
  const pad = (n: number) => String(n).padStart(2, '0');
  const base = `${days}:${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  return millis === 0 ? base : `${base}.${String(millis).padStart(3, '0').replace(/0+$/, '')}`;
}

/**
 * Any duration text the pickers accept: time-span text when it has a colon, otherwise
 * "number unit". Returns milliseconds or null.
 */
export function parseDurationText(text: string): number | null {
  return text.includes(':') ? parseTimeSpanText(text) : parseNumberUnitDuration(text);
}

/**
 * Trace Interval picker custom text ("2.5", "2.5s", "1m", "90 s"), in ms. Null when it is not
 * a duration or lies outside the interval range the server accepts (MinTraceIntervalMs to
 * MaxTraceIntervalMs of server/contract/targets).
 */
export function parseTraceIntervalText(text: string): number | null {
  const ms = parseDurationText(text);
  return ms !== null && ms >= MinTraceIntervalMs && ms <= MaxTraceIntervalMs ? ms : null;
}

/** Up to one decimal, without a trailing ".0". */
function shortNumber(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/**
 * Short display of a duration: days at 2 days or more, hours at 2 hours or more, minutes
 * at 2 minutes or more, otherwise seconds ("60 s", "5 min", "24 h", "7 days"). The output
 * reads back through parseNumberUnitDuration.
 */
export function formatDurationShort(durationMs: number): string {
  const ms = Math.abs(durationMs);
  const sign = durationMs < 0 ? '-' : '';
  if (ms >= TimeDisplayDaysFromMs) return `${sign}${shortNumber(ms / Ms.Day)} days`;
  if (ms >= TimeDisplayHoursFromMs) return `${sign}${shortNumber(ms / Ms.Hour)} h`;
  if (ms >= TimeDisplayMinutesFromMs) return `${sign}${shortNumber(ms / Ms.Minute)} min`;
  return `${sign}${shortNumber(ms / Ms.Second)} s`;
}
