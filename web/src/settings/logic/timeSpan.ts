// Time-span text of the settings editors (spec 2 section 5, spec 3 section 5): the editor
// reads days:hours:minutes:seconds with an optional fraction of a second; the display parser
// reads "number unit" with s, m, h or d (seconds when no unit); a numeric time-span input
// reverts to its previous value when the entry is not a number.

const UnitSeconds: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * "d:h:m:s" with optional fraction, fewer parts counting from seconds ("1:30" is 90 s,
 * "2:00:00:00.5" two days and half a second). Answers seconds, or null when it is not one.
 */
export function parseTimeSpan(text: string): number | null {
  const parts = text.trim().split(':');
  if (parts.length > 4 || parts.some((p) => p.trim() === '')) return null;
  const seconds = parts.pop()!.trim();
  if (!/^\d+(\.\d+)?$/.test(seconds)) return null;
  if (parts.some((p) => !/^\d+$/.test(p.trim()))) return null;
  const [d, h, m] = [...Array(3 - parts.length).fill(0), ...parts.map(Number)] as number[];
  if (parts.length >= 2 && m >= 60) return null;
  if (parts.length === 3 && h >= 24) return null;
  if (parts.length >= 1 && Number(seconds) >= 60) return null;
  return d * 86400 + h * 3600 + m * 60 + Number(seconds);
}

/** Seconds as "d:hh:mm:ss" (fraction kept), the editor's text for a time span. */
export function formatTimeSpan(totalSeconds: number): string {
  const whole = Math.floor(totalSeconds);
  const fraction = Math.round((totalSeconds - whole) * 1000) / 1000;
  const d = Math.floor(whole / 86400);
  const h = Math.floor((whole % 86400) / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  const sec = fraction ? `${pad(s)}${String(fraction).slice(1)}` : pad(s);
  return `${d}:${pad(h)}:${pad(m)}:${sec}`;
}

/** "number unit" with s, m, h or d ("5 m", "1.5h", "30"): seconds, or null when it is not one. */
export function parseDisplaySpan(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(text);
  if (!m) return null;
  return Number(m[1]) * UnitSeconds[(m[2] || 's').toLowerCase()];
}

/** A numeric input's value after an entry: the entry when it is a number, else the previous value. */
export function numericOrPrevious(entry: string, previous: number): number {
  const t = entry.trim();
  if (t === '') return previous;
  const n = Number(t);
  return Number.isFinite(n) ? n : previous;
}
