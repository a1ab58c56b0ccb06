// Plain TypeScript reference of the Insights statistics kernels (wasm/assembly/stats.ts):
// the same operations in the same order, so the WASM answers must match bit for bit. Used
// by the property tests and by bench:insights (the ratio WASM / TypeScript).
import type { Description, MeanShift, Segment } from './stats-types.js';

/** The finite values, in order, -0 made +0 (as the kernel compacts them). */
export function finiteValues(values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) out[m++] = v + 0;
  }
  return out.subarray(0, m);
}

export function referenceQuantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n <= 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  if (lo >= n - 1) return sorted[n - 1];
  if (lo < 0) return sorted[0];
  const a = sorted[lo];
  return a + (h - lo) * (sorted[lo + 1] - a);
}

export function emptyDescription(): Description {
  return {
    count: 0, min: NaN, lower: NaN, q1: NaN, median: NaN, mean: NaN, q3: NaN, upper: NaN, max: NaN,
    variance: NaN, stdDev: NaN, skewness: NaN, kurtosis: NaN, medianAbsDev: NaN,
    lowOutliers: new Float64Array(0), highOutliers: new Float64Array(0),
  };
}

export function referenceDescribe(values: ArrayLike<number>): Description {
  const s = finiteValues(values).sort();
  const m = s.length;
  if (m === 0) return emptyDescription();
  const q1 = referenceQuantileSorted(s, 0.25);
  const median = referenceQuantileSorted(s, 0.5);
  const q3 = referenceQuantileSorted(s, 0.75);
  const iqr = q3 - q1;
  const lowFence = q1 - 1.5 * iqr;
  const highFence = q3 + 1.5 * iqr;
  let lowOut = 0;
  while (lowOut < m && s[lowOut] < lowFence) lowOut++;
  let highOut = 0;
  while (highOut < m - lowOut && s[m - 1 - highOut] > highFence) highOut++;
  let sum = 0;
  for (let i = 0; i < m; i++) sum += s[i];
  const mean = sum / m;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  for (let i = 0; i < m; i++) {
    const d = s[i] - mean;
    const d2 = d * d;
    s2 += d2;
    s3 += d2 * d;
    s4 += d2 * d2;
  }
  const m2 = s2 / m;
  const variance = m > 1 ? s2 / (m - 1) : 0;
  const dev = new Float64Array(m);
  for (let i = 0; i < m; i++) dev[i] = Math.abs(s[i] - median);
  dev.sort();
  return {
    count: m,
    min: s[0],
    lower: Math.min(q1, s[lowOut]),
    q1,
    median,
    mean,
    q3,
    upper: Math.max(q3, s[m - 1 - highOut]),
    max: s[m - 1],
    variance,
    stdDev: Math.sqrt(variance),
    skewness: m >= 3 && m2 > 0 ? s3 / m / (m2 * Math.sqrt(m2)) : NaN,
    kurtosis: m >= 4 && m2 > 0 ? s4 / m / (m2 * m2) - 3 : NaN,
    medianAbsDev: referenceQuantileSorted(dev, 0.5),
    lowOutliers: s.slice(0, lowOut),
    highOutliers: s.slice(m - highOut),
  };
}

export function referencePearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = Math.min(x.length, y.length);
  let k = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(x[i]) && Number.isFinite(y[i])) {
      sx += x[i];
      sy += y[i];
      k++;
    }
  }
  if (k < 3) return NaN;
  const mx = sx / k;
  const my = sy / k;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(x[i]) && Number.isFinite(y[i])) {
      const dx = x[i] - mx;
      const dy = y[i] - my;
      sxy += dx * dy;
      sxx += dx * dx;
      syy += dy * dy;
    }
  }
  if (sxx <= 0 || syy <= 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

export function referenceSegmentsAbove(values: ArrayLike<number>, threshold: number, minRun: number, maxGap: number): Segment[] {
  const out: Segment[] = [];
  const n = values.length;
  let start = -1;
  let lastAbove = -1;
  const close = () => {
    if (lastAbove + 1 - start >= minRun) out.push({ start, end: lastAbove + 1 });
  };
  for (let i = 0; i < n; i++) {
    if (values[i] > threshold) {
      if (start < 0) start = i;
      else if (i - lastAbove - 1 > maxGap) {
        close();
        start = i;
      }
      lastAbove = i;
    }
  }
  if (start >= 0) close();
  return out;
}

export function referenceMeanShift(values: ArrayLike<number>, minSide: number): MeanShift {
  const s = finiteValues(values);
  const m = s.length;
  const side = minSide < 1 ? 1 : minSide;
  const none = { index: -1, before: NaN, after: NaN, score: NaN };
  if (m < 2 * side) return none;
  let total = 0;
  for (let i = 0; i < m; i++) total += s[i];
  let left = 0;
  let best = -1;
  let bestScore = -1;
  let before = NaN;
  let after = NaN;
  for (let k = 1; k < m; k++) {
    left += s[k - 1];
    if (k < side || m - k < side) continue;
    const b = left / k;
    const a = (total - left) / (m - k);
    const d = b - a;
    const score = ((k * (m - k)) / m) * d * d;
    if (score > bestScore) {
      bestScore = score;
      best = k;
      before = b;
      after = a;
    }
  }
  return { index: best, before, after, score: bestScore };
}
