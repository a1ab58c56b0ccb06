// How a latency is kept on disk: an integer number of microseconds (docs/store.md "Compact
// samples"). A DOUBLE of a measured latency has noise in every bit, so DuckDB could only
// compress it with ALPRD (about 5 bytes a value); whole microseconds bit-pack in about 2.
// The special codes of spec 2 (engine/latency-codes.ts, all below SpecialLatencyBase) become
// the small negative integers -1, -2...: keeping them at -4,194,305 would widen every
// bit-packed group that holds a Timeout to 23 bits. Measurements are >= 0, so the sign tells
// a code from a measurement. Precision: 1 microsecond (answers differ by at most that).
import { atMicrosecond, SpecialLatencyBase } from '../../engine/latency-codes.js';

/** The largest latency kept: 2^31 - 1 microseconds (about 35 minutes); longer ones are cut to it. */
export const MaxLatencyMicros = 2_147_483_647;

/** A latency (ms, or a code) rounded to the microsecond it is stored as, in ms. */
export function toStoredPrecision(ms: number): number {
  return ms >= 0 ? Math.min(atMicrosecond(ms), MaxLatencyMicros / 1000) : ms;
}

/** The stored integer of a latency (ms or a code); NaN stays NaN (a NULL of a nullable column). */
export function latencyMicros(ms: number): number {
  return ms >= 0 ? Math.min(Math.round(ms * 1000), MaxLatencyMicros) : ms - SpecialLatencyBase;
}

/** The same for a sum of latencies (a rollup's sum or jitter), kept in a BIGINT. */
export function sumMicros(ms: number): number {
  return Math.round(ms * 1000);
}

/** A stored latency (integer microseconds, or a negative code) back as ms or the code it stands for: latencyMsSql in JS. */
export function latencyFromMicros(stored: number): number {
  return stored < 0 ? stored + SpecialLatencyBase : stored / 1000;
}

/** The SQL that reads a stored latency (an INTEGER or BIGINT expression) back as DOUBLE ms or a code. */
export function latencyMsSql(expr: string): string {
  return `CASE WHEN ${expr} < 0 THEN ${expr} + (${SpecialLatencyBase}) ELSE ${expr}::DOUBLE / 1000 END`;
}

/** The SQL that stores a DOUBLE latency (ms or a code) as microseconds (the migration's conversion). */
export function latencyMicrosSql(expr: string): string {
  return `CASE WHEN ${expr} < 0 THEN (${expr} - (${SpecialLatencyBase}))::INTEGER ELSE least(round(${expr} * 1000), ${MaxLatencyMicros})::INTEGER END`;
}

/** The columns the reads of raw samples select: time ms, hop, latency ms (or a code). */
export const SampleSelectColumns = `time, hop, ${latencyMsSql('latency')} AS latency`;
