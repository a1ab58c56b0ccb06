// The control panel's focus time-range display (spec 2 section 2): the range the grid
// statistics cover, in local time, with its length in the short duration form. The exact
// layout is a decision: "08:00:00 - 08:10:00 (10 min)" within one day, dates added otherwise.
import { formatDurationShort } from './duration';

const pad = (n: number) => String(n).padStart(2, '0');
export const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
const date = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

export function formatTimeRangeText(startMs: number, endMs: number): string {
  const start = new Date(startMs);
  const end = new Date(endMs);
  const length = formatDurationShort(endMs - startMs);
  if (date(start) === date(end)) return `${clock(start)} - ${clock(end)} (${length})`;
  return `${date(start)} ${clock(start)} - ${date(end)} ${clock(end)} (${length})`;
}
