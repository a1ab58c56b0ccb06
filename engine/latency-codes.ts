// The special latency codes of spec 2: every value below SpecialLatencyBase is a code, not
// a measurement. One definition for the engine, the store, the WASM kernels and the console.
// Measured latencies are milliseconds (float64, >= 0).

export const SpecialLatencyBase = -4194304;

export const LatencyCode = {
  /** The probe got no answer within the timeout: shown "*". */
  Timeout: SpecialLatencyBase - 1,
  /** The hop was not probed in this round (e.g. final-hop-only mode): shown "N/A". */
  NotParticipating: SpecialLatencyBase - 2,
  /** A probe is in flight and has no outcome yet: shown "?". */
  Pending: SpecialLatencyBase - 3,
  /** Marks a stop or a start of the trace at this time: shown "N/A". */
  StopStart: SpecialLatencyBase - 4,
  /** A value to discard (not counted as sent nor lost). */
  Ignore: SpecialLatencyBase - 5,
} as const;
export type LatencyCode = (typeof LatencyCode)[keyof typeof LatencyCode];

export function isSpecialLatency(value: number): boolean {
  return value < SpecialLatencyBase;
}

/**
 * A measured latency (ms) at the microsecond, the precision the store keeps (docs/store.md
 * "Compact samples"); a code (negative) as it is. The server's ingest and a remote agent's
 * wire rounds both round with this, so what an agent sends is what is stored.
 */
export function atMicrosecond(ms: number): number {
  return ms >= 0 ? Math.round(ms * 1000) / 1000 : ms;
}

/**
 * Text a grid cell shows for a latency value (spec 2: "*" timeout, "N/A" or "?" others).
 * Without `digits`, one decimal, or two below 1 ms so LAN hops do not read "0.0".
 */
export function latencyDisplayText(value: number, digits?: number): string {
  if (!isSpecialLatency(value)) return value.toFixed(digits ?? (value < 1 ? 2 : 1));
  if (value === LatencyCode.Timeout) return '*';
  if (value === LatencyCode.Pending) return '?';
  return 'N/A';
}
