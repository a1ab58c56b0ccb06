// Many ids in one statement: `WHERE id IN (SELECT unnest($1::INTEGER[]))` with the ids as one
// list parameter (DuckDB reads '[1,2,3]' as a list), the batched reads' shared form. Only safe
// integers go in, so the text is a list of numbers and nothing else.
import { ListParam } from './dialect.js';

/** The safe integers of `ids`, in order. */
export const safeIds = (ids: Iterable<number>): number[] => [...ids].filter((id) => Number.isSafeInteger(id));

/** A list parameter of numbers (DuckDB binds it as the text '[1,2,3]', PostgreSQL as an array: dialect.ts). */
export const listParam = (xs: readonly number[]): ListParam => new ListParam(xs, true);
