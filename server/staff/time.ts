// Times leave the staff calls as ISO text (epoch_ms from DuckDB arrives as a number or bigint).
export const isoOf = (ms: number | bigint | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());
