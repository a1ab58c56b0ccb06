// The data calls' reads (TraceGraphRows, DataPointBuckets): what open consoles ask for again
// and again. Under overload they are refused with 503 and Retry-After (bounded queue, wait
// limit), never queued without end (server/store/db.ts ReadPool, docs/store.md "Overload").
import type { ReadOptions } from '../store/db.js';

export const ConsoleRead: ReadOptions = { priority: 'bulk' };
