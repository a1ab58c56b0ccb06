// Schema pieces every door shares for the same kind of value, bounded to what the store
// holds: an id past a 32-bit INTEGER column would reach the database and fail there.
import { MaxRecordId } from '../contract/targets.js';

/** A stored record's id (users, summaries, comments, configurations, sessions). */
export const recordId = { type: 'integer', minimum: 1, maximum: MaxRecordId } as const;

/** Any 32-bit integer (agent ids are negative for the built-in agent). */
export const int32 = { type: 'integer', minimum: -2147483648, maximum: 2147483647 } as const;
