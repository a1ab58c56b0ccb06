// One aggregate cell (one bucket x one hop) in the kernel's scratch area. Array-of-structs
// on purpose: a sample updates one 72-byte cell (one or two cache lines) instead of
// touching eleven separate column arrays; finalize transposes to columns once at the end.

@unmanaged
export class Cell {
  /** Sum of valid latencies (ms). */
  sum: f64;
  /** Minimum / maximum valid latency; +Inf / -Inf while the cell has none. */
  min: f64;
  max: f64;
  /** First and last valid latency in time order; NaN while the cell has none. */
  first: f64;
  lastValid: f64;
  /** Sum of |difference| of consecutive valid latencies, and how many pairs. */
  jitterSum: f64;
  /** Latest outcome: a valid latency, the Timeout code or the NotParticipating code. */
  last: f64;
  /** Samples sent (valid + Timeout) and lost (Timeout). */
  count: i32;
  lost: i32;
  jitterPairs: i32;
  flags: i32;
}

export const CELL_SIZE: usize = offsetof<Cell>();

// @ts-ignore: decorator
@inline
export function cellAt(cellsPtr: usize, index: i32): Cell {
  return changetype<Cell>(cellsPtr + <usize>index * CELL_SIZE);
}
