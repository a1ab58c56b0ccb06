// Many ids in one statement: `WHERE id IN (SELECT unnest($1::INTEGER[]))` with the ids as one
// list parameter (DuckDB reads '[1,2,3]' as a list), the batched reads' shared form. Only safe
// integers go in, so the text is a list of numbers and nothing else.

/** The safe integers of `ids`, in order. */
export const safeIds = (ids: Iterable<number>): number[] => [...ids].filter((id) => Number.isSafeInteger(id));

/** A list parameter of numbers ('[1,2,3]'); callers pass numbers only. */
export const listParam = (xs: readonly number[]): string => `[${xs.join(',')}]`;
