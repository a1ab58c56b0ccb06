// One schema per argument of the data calls, used by the REST routes' query schemas and by
// the /mainHub argument checks alike (so both doors refuse the same input the same way).
import { TargetListType } from '../contract/targets.js';
import { MaxPeriodSeconds } from './buckets.js';

/** A target or row id ("12", "12_h_3", "SUM-1"), or a number over the hub. */
export const targetIdArg = { type: ['string', 'integer'], maxLength: 64, minimum: -2147483648, maximum: 2147483647 } as const;
/** ISO 8601 text or epoch milliseconds (server/http/time.ts reads both). */
export const timeArg = { type: ['string', 'number'], maxLength: 64 } as const;
export const periodSecondsArg = { type: 'number', exclusiveMinimum: 0, maximum: MaxPeriodSeconds } as const;
export const includeJitterArg = { type: 'boolean' } as const;
export const listTypeArg = { type: 'string', enum: [...TargetListType] } as const;
export const columnNameListArg = { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 100 } } as const;
