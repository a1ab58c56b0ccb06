// The one reader of times in requests, REST and hub alike: an ISO 8601 text, or epoch
// milliseconds as a number or as digits ("1700000000000"). Before, four parsers disagreed
// (the hub read "1700000000000" as a date string and refused the range).
import { badRequest } from './errors.js';

/** The range of a JavaScript Date (and so of an ISO time in an answer), in epoch ms. */
export const MaxEpochMs = 8.64e15;

const epochDigits = /^-?\d+(\.\d+)?$/;

/** Epoch ms of the time; 400 naming `field` when it is none. */
export function parseTime(value: string | number, field: string): number {
  const text = String(value).trim();
  const ms = typeof value === 'number' ? value : epochDigits.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms) || Math.abs(ms) > MaxEpochMs) {
    throw badRequest(`${field} must be an ISO time or epoch milliseconds, got "${text.slice(0, 64)}".`);
  }
  // Whole milliseconds, as times are stored (BIGINT): DuckDB rounded "1.5" where it was bound
  // to a BIGINT, PostgreSQL refuses it (a comment's When failed with 500 there).
  return Math.round(ms);
}

/** As parseTime; undefined (use the default) when not given. */
export function parseOptionalTime(value: string | number | null | undefined, field: string): number | undefined {
  return value === undefined || value === null || value === '' ? undefined : parseTime(value, field);
}
