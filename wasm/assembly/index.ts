// Hopwatch WASM kernels: bucketing and grid-row statistics over latency samples and rollup
// rows. No allocation happens in here: the JavaScript loader (wasm/loader.ts) owns linear
// memory above heapBase() and passes pointers. See docs/kernels.md for the contract.

import { CELL_SIZE } from './cell';

export {
  SPECIAL_LATENCY_BASE,
  CODE_TIMEOUT,
  CODE_NOT_PARTICIPATING,
  CODE_PENDING,
  CODE_STOP_START,
  CODE_IGNORE,
  FLAG_HAS_NOT_PARTICIPATING,
  FLAG_IS_START_TRACE,
} from './codes';
export { resetCells, accumulateSamples, accumulateRollups } from './accumulate';
export { finalizeBuckets, finalizeRowStats } from './finalize';

/** Bytes of one scratch cell. */
export function cellSize(): i32 {
  return <i32>CELL_SIZE;
}

/** First byte of linear memory free for the loader (nothing is allocated in the module). */
export function heapBase(): usize {
  return __heap_base;
}
export {
  DESCRIBE_SLOTS,
  compactFinite,
  sortValues,
  quantileSorted,
  describe,
  pearson,
  segmentsAbove,
  meanShift,
} from './stats';
