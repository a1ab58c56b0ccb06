// Accumulation: raw samples or pre-aggregated rollup rows are folded into cells. Both may
// be fed in several chunks (in time order), so a caller can stream a large range through a
// fixed-size input buffer, and can mix rollup rows (older data) with raw samples (recent
// data) in one answer.

import { Cell, cellAt } from './cell';
import {
  SPECIAL_LATENCY_BASE,
  CODE_TIMEOUT,
  CODE_NOT_PARTICIPATING,
  CODE_STOP_START,
  FLAG_HAS_NOT_PARTICIPATING,
  FLAG_IS_START_TRACE,
} from './codes';

/** Empties `cellCount` cells. */
export function resetCells(cellsPtr: usize, cellCount: i32): void {
  for (let i = 0; i < cellCount; i++) {
    const c = cellAt(cellsPtr, i);
    c.sum = 0;
    c.min = Infinity;
    c.max = -Infinity;
    c.first = NaN;
    c.lastValid = NaN;
    c.jitterSum = 0;
    c.last = NaN;
    c.count = 0;
    c.lost = 0;
    c.jitterPairs = 0;
    c.flags = 0;
  }
}

// Bucket numbers are exactly floor((time - start) / period), as the TypeScript reference
// computes them, found through two caches that rest on that function being monotonic in time
// (IEEE rounding is monotonic): any time between two times already seen in bucket b is in b,
// and any time at or after one already seen past the grid is past it too. Exact, and with
// time-ordered input nearly every sample skips the division. Both loops below inline it
// with locals (the cache state lo, hi, cached, above): a helper object would need the heap,
// which belongs to the loader.

/**
 * Folds raw samples (columns: time ms f64, hop i32, latency f64) into cells laid out
 * bucket-major: cell = bucket x hopCount + (hop - 1). Samples must be in time order (per
 * hop) for first latency and jitter to mean what they say.
 */
export function accumulateSamples(
  cellsPtr: usize,
  timePtr: usize,
  hopPtr: usize,
  latencyPtr: usize,
  n: i32,
  start: f64,
  period: f64,
  bucketCount: i32,
  hopCount: i32,
): void {
  // Bucket-number cache: the bucket number is a monotonic function of time, so any time
  // between two times already seen in bucket b is in b too. Exact (no boundary guessing),
  // and in time-ordered input it skips the division for all but a few samples.
  let lo = Infinity;
  let hi = -Infinity;
  let cached: i32 = -1;
  let above = Infinity;
  const buckets = <f64>bucketCount;
  for (let i = 0; i < n; i++) {
    const t = load<f64>(timePtr + (<usize>i << 3));
    let b = cached;
    if (!(t >= lo && t <= hi)) {
      if (!(t >= start) || t >= above) continue; // before the grid (or NaN), or past it
      const rel = Math.floor((t - start) / period);
      if (!(rel < buckets)) {
        above = t; // smaller than any earlier `above`, or it would have been skipped
        continue;
      }
      b = <i32>rel;
      if (b != cached) {
        cached = b;
        lo = t;
        hi = t;
      } else if (t < lo) lo = t;
      else hi = t;
    }
    const hop = load<i32>(hopPtr + (<usize>i << 2));
    const v = load<f64>(latencyPtr + (<usize>i << 3));
    if (hop < 1 || hop > hopCount) {
      // A stop/start marker recorded for the whole target (hop 0) flags every hop.
      if (hop == 0 && v == CODE_STOP_START) {
        for (let h = 0; h < hopCount; h++) {
          const m = cellAt(cellsPtr, b * hopCount + h);
          m.flags |= FLAG_IS_START_TRACE;
        }
      }
      continue;
    }
    const c = cellAt(cellsPtr, b * hopCount + hop - 1);
    if (v >= SPECIAL_LATENCY_BASE) {
      if (c.count - c.lost > 0) {
        c.jitterSum += Math.abs(v - c.lastValid);
        c.jitterPairs++;
      } else {
        c.first = v;
      }
      c.lastValid = v;
      c.last = v;
      c.sum += v;
      if (v < c.min) c.min = v;
      if (v > c.max) c.max = v;
      c.count++;
    } else if (v == CODE_TIMEOUT) {
      c.count++;
      c.lost++;
      c.last = v;
    } else if (v == CODE_NOT_PARTICIPATING) {
      c.flags |= FLAG_HAS_NOT_PARTICIPATING;
      c.last = v;
    } else if (v == CODE_STOP_START) {
      c.flags |= FLAG_IS_START_TRACE;
    }
    // Pending, Ignore and any unknown code: skipped (neither sent nor lost).
  }
}

/**
 * Folds rollup rows (pre-aggregated cells of a finer period, with the time their period
 * starts) into cells. Rows must be in time order per hop; a row lands wholly in the bucket
 * holding its start time. Fields of a row without valid latencies (count - lost == 0) other
 * than count, lost, jitter, last and flags are ignored, so NULL-as-0 is harmless there.
 * Rows of `skipHop` (0: none) are left out: for a caller that adds that hop's rows whole from
 * another piece and takes only the other hops from this one.
 */
export function accumulateRollups(
  cellsPtr: usize,
  timePtr: usize,
  hopPtr: usize,
  countPtr: usize,
  lostPtr: usize,
  sumPtr: usize,
  minPtr: usize,
  maxPtr: usize,
  firstPtr: usize,
  lastValidPtr: usize,
  jitterSumPtr: usize,
  jitterPairsPtr: usize,
  lastPtr: usize,
  flagsPtr: usize,
  n: i32,
  start: f64,
  period: f64,
  bucketCount: i32,
  hopCount: i32,
  skipHop: i32,
): void {
  let lo = Infinity;
  let hi = -Infinity;
  let cached: i32 = -1;
  let above = Infinity;
  const buckets = <f64>bucketCount;
  for (let i = 0; i < n; i++) {
    const o8 = <usize>i << 3;
    const o4 = <usize>i << 2;
    const t = load<f64>(timePtr + o8);
    let b = cached; // the same exact bucket-number caches as accumulateSamples
    if (!(t >= lo && t <= hi)) {
      if (!(t >= start) || t >= above) continue;
      const rel = Math.floor((t - start) / period);
      if (!(rel < buckets)) {
        above = t;
        continue;
      }
      b = <i32>rel;
      if (b != cached) {
        cached = b;
        lo = t;
        hi = t;
      } else if (t < lo) lo = t;
      else hi = t;
    }
    const hop = load<i32>(hopPtr + o4);
    if (hop < 1 || hop > hopCount || hop == skipHop) continue;
    const c = cellAt(cellsPtr, b * hopCount + hop - 1);
    const rowCount = load<i32>(countPtr + o4);
    const rowLost = load<i32>(lostPtr + o4);
    if (rowCount - rowLost > 0) {
      const rowFirst = load<f64>(firstPtr + o8);
      if (c.count - c.lost > 0) {
        // The pair that straddles the two rows is consecutive in the coarser bucket.
        c.jitterSum += Math.abs(rowFirst - c.lastValid);
        c.jitterPairs++;
      } else {
        c.first = rowFirst;
      }
      c.lastValid = load<f64>(lastValidPtr + o8);
      c.sum += load<f64>(sumPtr + o8);
      const rowMin = load<f64>(minPtr + o8);
      const rowMax = load<f64>(maxPtr + o8);
      if (rowMin < c.min) c.min = rowMin;
      if (rowMax > c.max) c.max = rowMax;
    }
    c.jitterSum += load<f64>(jitterSumPtr + o8);
    c.jitterPairs += load<i32>(jitterPairsPtr + o4);
    c.count += rowCount;
    c.lost += rowLost;
    c.flags |= load<i32>(flagsPtr + o4);
    const rowLast = load<f64>(lastPtr + o8);
    if (rowLast == rowLast) c.last = rowLast; // not NaN
  }
}
