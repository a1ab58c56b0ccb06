// Times in comment calls: ISO 8601 text, or epoch milliseconds as digits.
import { badRequest } from '../http/errors.js';

export function parseTime(value: string | number, field: string): number {
  const text = String(value).trim();
  const ms = /^-?\d+$/.test(text) ? Number(text) : Date.parse(text);
  // Date covers +-8.64e15 ms; anything outside cannot be shown as an ISO time.
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw badRequest(`${field} must be an ISO time or epoch milliseconds, got "${text.slice(0, 64)}".`);
  return ms;
}
