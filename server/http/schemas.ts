// Schema pieces every door shares for the same kind of value, bounded to what the store
// holds: an id past a 32-bit INTEGER column would reach the database and fail there.
import { MaxRecordId } from '../contract/targets.js';

/** A stored record's id (users, summaries, comments, configurations, sessions). */
export const recordId = { type: 'integer', minimum: 1, maximum: MaxRecordId } as const;

/** Any 32-bit integer (agent ids are negative for the built-in agent). */
export const int32 = { type: 'integer', minimum: -2147483648, maximum: 2147483647 } as const;

/**
 * An id given as text (a hub argument or a query value that may also name a target, so no
 * schema made it a number): decimal digits only, within [min, max]. `Number()` alone reads
 * '1e23', '0x10', ' 7 ' and '1E400' as numbers; 1e23 passes Number.isInteger and reached
 * SQL as "bigint out of int64 range" (issue 39 item 9). Undefined when it is no such id.
 */
export function parseIdText(text: string | number, min: number, max: number): number | undefined {
  const t = String(text).trim();
  if (!/^-?\d{1,10}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= min && n <= max ? n : undefined;
}

/** A stored record's id as text (1 to 2^31-1), see parseIdText. */
export const parseRecordId = (text: string | number): number | undefined => parseIdText(text, 1, MaxRecordId);

/** A 32-bit id as text (agents: -1 is the Local Machine), see parseIdText. */
export const parseInt32Id = (text: string | number): number | undefined => parseIdText(text, int32.minimum, int32.maximum);
