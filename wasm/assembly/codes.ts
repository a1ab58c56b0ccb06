// The special latency codes of engine/latency-codes.ts, restated for AssemblyScript (which
// cannot compile that file's `as const` object). The loader checks at instantiation that
// these exported values equal the engine's, so the two can never drift silently.

export const SPECIAL_LATENCY_BASE: f64 = -4194304;
export const CODE_TIMEOUT: f64 = SPECIAL_LATENCY_BASE - 1;
export const CODE_NOT_PARTICIPATING: f64 = SPECIAL_LATENCY_BASE - 2;
export const CODE_PENDING: f64 = SPECIAL_LATENCY_BASE - 3;
export const CODE_STOP_START: f64 = SPECIAL_LATENCY_BASE - 4;
export const CODE_IGNORE: f64 = SPECIAL_LATENCY_BASE - 5;

/** Cell flag bits (docs/kernels.md). */
export const FLAG_HAS_NOT_PARTICIPATING: i32 = 1;
export const FLAG_IS_START_TRACE: i32 = 2;
