// Insights statistics kernels: box plot and quantiles, moments (skewness, kurtosis), median
// absolute deviation, Pearson correlation, segment detection and a mean-shift change point.
// Like the bucket kernels they allocate nothing: the loader passes pointers into memory it
// owns. wasm/stats-reference.ts is the TypeScript reference of each, bit for bit (same
// operations in the same order): see docs/kernels.md "Statistics kernels".

// Layout of describe()'s output (f64 slots); wasm/stats.ts reads it by these indices.
export const DESCRIBE_COUNT: i32 = 0;
export const DESCRIBE_MIN: i32 = 1;
export const DESCRIBE_LOWER: i32 = 2;
export const DESCRIBE_Q1: i32 = 3;
export const DESCRIBE_MEDIAN: i32 = 4;
export const DESCRIBE_MEAN: i32 = 5;
export const DESCRIBE_Q3: i32 = 6;
export const DESCRIBE_UPPER: i32 = 7;
export const DESCRIBE_MAX: i32 = 8;
export const DESCRIBE_VARIANCE: i32 = 9;
export const DESCRIBE_STDDEV: i32 = 10;
export const DESCRIBE_SKEWNESS: i32 = 11;
export const DESCRIBE_KURTOSIS: i32 = 12;
export const DESCRIBE_MAD: i32 = 13;
export const DESCRIBE_LOW_OUTLIERS: i32 = 14;
export const DESCRIBE_HIGH_OUTLIERS: i32 = 15;
export const DESCRIBE_SLOTS: i32 = 16;

@inline function at(ptr: usize, i: i32): f64 {
  return load<f64>(ptr + (<usize>i << 3));
}

@inline function put(ptr: usize, i: i32, v: f64): void {
  store<f64>(ptr + (<usize>i << 3), v);
}

/**
 * Keeps the non-NaN, finite values of ptr[0, n) at its front (in order) and returns their
 * number. -0 becomes +0 so every sort agrees on the order of zeros.
 */
export function compactFinite(ptr: usize, n: i32): i32 {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = at(ptr, i);
    if (isFinite(v)) {
      put(ptr, m, v + 0.0);
      m++;
    }
  }
  return m;
}

function insertionSort(ptr: usize, lo: i32, hi: i32): void {
  for (let i = lo + 1; i <= hi; i++) {
    const v = at(ptr, i);
    let j = i - 1;
    while (j >= lo && at(ptr, j) > v) {
      put(ptr, j + 1, at(ptr, j));
      j--;
    }
    put(ptr, j + 1, v);
  }
}

/** Ascending in-place sort of finite values (introsort-free quicksort, median of three). */
export function sortValues(ptr: usize, n: i32): void {
  // An explicit stack of ranges: recursion depth stays bounded by sorting the smaller side first.
  let lo = 0;
  let hi = n - 1;
  const stackBase = ptr + (<usize>n << 3); // caller reserves 64 x 8 bytes after the values
  let sp = 0;
  while (true) {
    while (hi - lo > 24) {
      const mid = lo + ((hi - lo) >> 1);
      // median of three into ptr[mid]
      if (at(ptr, mid) < at(ptr, lo)) swap(ptr, mid, lo);
      if (at(ptr, hi) < at(ptr, lo)) swap(ptr, hi, lo);
      if (at(ptr, hi) < at(ptr, mid)) swap(ptr, hi, mid);
      const pivot = at(ptr, mid);
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (at(ptr, i) < pivot) i++;
        while (at(ptr, j) > pivot) j--;
        if (i <= j) {
          swap(ptr, i, j);
          i++;
          j--;
        }
      }
      // push the larger side, loop on the smaller
      if (j - lo < hi - i) {
        if (i < hi) {
          store<i32>(stackBase + (<usize>sp << 3), i);
          store<i32>(stackBase + (<usize>sp << 3) + 4, hi);
          sp++;
        }
        hi = j;
      } else {
        if (lo < j) {
          store<i32>(stackBase + (<usize>sp << 3), lo);
          store<i32>(stackBase + (<usize>sp << 3) + 4, j);
          sp++;
        }
        lo = i;
      }
    }
    if (lo < hi) insertionSort(ptr, lo, hi);
    if (sp == 0) break;
    sp--;
    lo = load<i32>(stackBase + (<usize>sp << 3));
    hi = load<i32>(stackBase + (<usize>sp << 3) + 4);
  }
}

@inline function swap(ptr: usize, a: i32, b: i32): void {
  const t = at(ptr, a);
  put(ptr, a, at(ptr, b));
  put(ptr, b, t);
}

/** Quantile p (0..1) of sorted[0, n): linear interpolation between order statistics (R type 7). */
export function quantileSorted(ptr: usize, n: i32, p: f64): f64 {
  if (n <= 0) return NaN;
  const h = <f64>(n - 1) * p;
  const lo = <i32>Math.floor(h);
  if (lo >= n - 1) return at(ptr, n - 1);
  if (lo < 0) return at(ptr, 0);
  const a = at(ptr, lo);
  return a + (h - <f64>lo) * (at(ptr, lo + 1) - a);
}

/**
 * Everything a box plot and the moment charts need, over the finite values of ptr[0, n).
 * ptr is reordered: afterwards its first `count` values are sorted, so the low outliers are
 * its first DESCRIBE_LOW_OUTLIERS values and the high outliers its last DESCRIBE_HIGH_OUTLIERS.
 * scratch needs (n + 64) x 8 bytes, and ptr needs 64 x 8 free bytes after n values (sort stack).
 */
export function describe(ptr: usize, n: i32, scratch: usize, out: usize): i32 {
  const m = compactFinite(ptr, n);
  for (let k = 0; k < DESCRIBE_SLOTS; k++) put(out, k, NaN);
  put(out, DESCRIBE_COUNT, <f64>m);
  put(out, DESCRIBE_LOW_OUTLIERS, 0);
  put(out, DESCRIBE_HIGH_OUTLIERS, 0);
  if (m == 0) return 0;
  sortValues(ptr, m);
  const q1 = quantileSorted(ptr, m, 0.25);
  const median = quantileSorted(ptr, m, 0.5);
  const q3 = quantileSorted(ptr, m, 0.75);
  const iqr = q3 - q1;
  const lowFence = q1 - 1.5 * iqr;
  const highFence = q3 + 1.5 * iqr;
  let lowOut = 0;
  while (lowOut < m && at(ptr, lowOut) < lowFence) lowOut++;
  let highOut = 0;
  while (highOut < m - lowOut && at(ptr, m - 1 - highOut) > highFence) highOut++;

  let sum = 0.0;
  for (let i = 0; i < m; i++) sum += at(ptr, i);
  const mean = sum / <f64>m;
  let s2 = 0.0;
  let s3 = 0.0;
  let s4 = 0.0;
  for (let i = 0; i < m; i++) {
    const d = at(ptr, i) - mean;
    const d2 = d * d;
    s2 += d2;
    s3 += d2 * d;
    s4 += d2 * d2;
  }
  const m2 = s2 / <f64>m;
  const variance = m > 1 ? s2 / <f64>(m - 1) : 0.0;
  put(out, DESCRIBE_MIN, at(ptr, 0));
  // Whiskers never inside the box (interpolated quartiles can pass the last in-fence value).
  put(out, DESCRIBE_LOWER, Math.min(q1, at(ptr, lowOut)));
  put(out, DESCRIBE_Q1, q1);
  put(out, DESCRIBE_MEDIAN, median);
  put(out, DESCRIBE_MEAN, mean);
  put(out, DESCRIBE_Q3, q3);
  put(out, DESCRIBE_UPPER, Math.max(q3, at(ptr, m - 1 - highOut)));
  put(out, DESCRIBE_MAX, at(ptr, m - 1));
  put(out, DESCRIBE_VARIANCE, variance);
  put(out, DESCRIBE_STDDEV, Math.sqrt(variance));
  // Population (g1, g2 excess) moments: undefined for a constant series or too few values.
  put(out, DESCRIBE_SKEWNESS, m >= 3 && m2 > 0 ? s3 / <f64>m / (m2 * Math.sqrt(m2)) : NaN);
  put(out, DESCRIBE_KURTOSIS, m >= 4 && m2 > 0 ? s4 / <f64>m / (m2 * m2) - 3.0 : NaN);
  put(out, DESCRIBE_LOW_OUTLIERS, <f64>lowOut);
  put(out, DESCRIBE_HIGH_OUTLIERS, <f64>highOut);

  // Median absolute deviation: the median of |x - median|.
  for (let i = 0; i < m; i++) put(scratch, i, Math.abs(at(ptr, i) - median));
  sortValues(scratch, m);
  put(out, DESCRIBE_MAD, quantileSorted(scratch, m, 0.5));
  return m;
}

/**
 * Pearson correlation of x and y over the indices where both are finite; NaN with fewer
 * than 3 such pairs or when either side is constant.
 */
export function pearson(xPtr: usize, yPtr: usize, n: i32): f64 {
  let k = 0;
  let sx = 0.0;
  let sy = 0.0;
  for (let i = 0; i < n; i++) {
    const x = at(xPtr, i);
    const y = at(yPtr, i);
    if (isFinite(x) && isFinite(y)) {
      sx += x;
      sy += y;
      k++;
    }
  }
  if (k < 3) return NaN;
  const mx = sx / <f64>k;
  const my = sy / <f64>k;
  let sxy = 0.0;
  let sxx = 0.0;
  let syy = 0.0;
  for (let i = 0; i < n; i++) {
    const x = at(xPtr, i);
    const y = at(yPtr, i);
    if (isFinite(x) && isFinite(y)) {
      const dx = x - mx;
      const dy = y - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
  }
  if (sxx <= 0 || syy <= 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * Runs of values above `threshold` (NaN is not above): runs separated by at most `maxGap`
 * indices not above join; runs shorter than `minRun` indices are dropped. Writes
 * [start, end) index pairs (i32) to out and returns the number of segments.
 */
export function segmentsAbove(ptr: usize, n: i32, threshold: f64, minRun: i32, maxGap: i32, out: usize): i32 {
  let count = 0;
  let start = -1;
  let lastAbove = -1;
  for (let i = 0; i <= n; i++) {
    const above = i < n && at(ptr, i) > threshold;
    if (above) {
      if (start < 0) start = i;
      else if (i - lastAbove - 1 > maxGap) {
        if (lastAbove + 1 - start >= minRun) {
          store<i32>(out + (<usize>count << 3), start);
          store<i32>(out + (<usize>count << 3) + 4, lastAbove + 1);
          count++;
        }
        start = i;
      }
      lastAbove = i;
    } else if (i == n && start >= 0) {
      if (lastAbove + 1 - start >= minRun) {
        store<i32>(out + (<usize>count << 3), start);
        store<i32>(out + (<usize>count << 3) + 4, lastAbove + 1);
        count++;
      }
    }
  }
  return count;
}

/**
 * The single split of the finite values of ptr[0, n) that best separates two means (the
 * first step of binary segmentation): maximises k (m - k) / m x (mean before - mean after)^2
 * over splits leaving at least `minSide` values each side. ptr is compacted (finite values
 * first). Writes [split index in the compacted values, mean before, mean after, score] to
 * out; index -1 when no split is possible. Returns the split index.
 */
export function meanShift(ptr: usize, n: i32, minSide: i32, out: usize): i32 {
  const m = compactFinite(ptr, n);
  put(out, 0, -1);
  put(out, 1, NaN);
  put(out, 2, NaN);
  put(out, 3, NaN);
  const side = minSide < 1 ? 1 : minSide;
  if (m < 2 * side) return -1;
  let total = 0.0;
  for (let i = 0; i < m; i++) total += at(ptr, i);
  let left = 0.0;
  let best = -1;
  let bestScore = -1.0;
  let bestBefore = NaN;
  let bestAfter = NaN;
  for (let k = 1; k < m; k++) {
    left += at(ptr, k - 1);
    if (k < side || m - k < side) continue;
    const before = left / <f64>k;
    const after = (total - left) / <f64>(m - k);
    const d = before - after;
    const score = (<f64>k * <f64>(m - k)) / <f64>m * d * d;
    if (score > bestScore) {
      bestScore = score;
      best = k;
      bestBefore = before;
      bestAfter = after;
    }
  }
  put(out, 0, <f64>best);
  put(out, 1, bestBefore);
  put(out, 2, bestAfter);
  put(out, 3, bestScore);
  return best;
}
