// Finalize: cells -> output columns (one copy, column-major, ready to append to DuckDB or
// to hand to the caller), plus the derived values (average, jitter, route, loss percent).

import { cellAt } from './cell';

/** Writes every aggregate column, average and jitter per cell, and the route per bucket. */
export function finalizeBuckets(
  cellsPtr: usize,
  bucketCount: i32,
  hopCount: i32,
  countOut: usize,
  lostOut: usize,
  sumOut: usize,
  minOut: usize,
  maxOut: usize,
  firstOut: usize,
  lastValidOut: usize,
  jitterSumOut: usize,
  jitterPairsOut: usize,
  lastOut: usize,
  flagsOut: usize,
  averageOut: usize,
  jitterOut: usize,
  routeBitMaskOut: usize,
  routeLengthOut: usize,
): void {
  for (let b = 0; b < bucketCount; b++) {
    let mask: u32 = 0;
    let length: i32 = 0;
    for (let h = 0; h < hopCount; h++) {
      const i = b * hopCount + h;
      const c = cellAt(cellsPtr, i);
      const o8 = <usize>i << 3;
      const o4 = <usize>i << 2;
      const valid = c.count - c.lost;
      store<i32>(countOut + o4, c.count);
      store<i32>(lostOut + o4, c.lost);
      store<f64>(sumOut + o8, c.sum);
      store<f64>(minOut + o8, valid > 0 ? c.min : NaN);
      store<f64>(maxOut + o8, valid > 0 ? c.max : NaN);
      store<f64>(firstOut + o8, c.first);
      store<f64>(lastValidOut + o8, c.lastValid);
      store<f64>(jitterSumOut + o8, c.jitterSum);
      store<i32>(jitterPairsOut + o4, c.jitterPairs);
      store<f64>(lastOut + o8, c.last);
      store<i32>(flagsOut + o4, c.flags);
      store<f64>(averageOut + o8, valid > 0 ? c.sum / <f64>valid : NaN);
      store<f64>(jitterOut + o8, c.jitterPairs > 0 ? c.jitterSum / <f64>c.jitterPairs : NaN);
      if (valid > 0) {
        // Hop h + 1 answered in this bucket. The mask holds hops 1..32; the length any hop.
        if (h < 32) mask |= (<u32>1) << <u32>h;
        length = h + 1;
      }
    }
    store<u32>(routeBitMaskOut + (<usize>b << 2), mask);
    store<i32>(routeLengthOut + (<usize>b << 2), length);
  }
}

/** Grid-row statistics per hop from a single-bucket accumulation (cells 0..hopCount-1). */
export function finalizeRowStats(
  cellsPtr: usize,
  hopCount: i32,
  averageOut: usize,
  minOut: usize,
  maxOut: usize,
  currentOut: usize,
  lossPercentOut: usize,
  goodCountOut: usize,
  countOut: usize,
  lostOut: usize,
  jitterOut: usize,
): void {
  for (let h = 0; h < hopCount; h++) {
    const c = cellAt(cellsPtr, h);
    const o8 = <usize>h << 3;
    const o4 = <usize>h << 2;
    const valid = c.count - c.lost;
    store<f64>(averageOut + o8, valid > 0 ? c.sum / <f64>valid : NaN);
    store<f64>(minOut + o8, valid > 0 ? c.min : NaN);
    store<f64>(maxOut + o8, valid > 0 ? c.max : NaN);
    store<f64>(currentOut + o8, c.last);
    store<f64>(lossPercentOut + o8, c.count > 0 ? (<f64>c.lost / <f64>c.count) * 100 : NaN);
    store<i32>(goodCountOut + o4, valid);
    store<i32>(countOut + o4, c.count);
    store<i32>(lostOut + o4, c.lost);
    store<f64>(jitterOut + o8, c.jitterPairs > 0 ? c.jitterSum / <f64>c.jitterPairs : NaN);
  }
}
