// Shapes of the Insights statistics kernels' answers (wasm/stats.ts, wasm/stats-reference.ts).

/** Box plot, moments and deviation of a series' finite values. NaN is "no value". */
export interface Description {
  count: number;
  min: number;
  /** Lowest value within 1.5 x IQR below Q1 (the lower whisker). */
  lower: number;
  q1: number;
  median: number;
  mean: number;
  q3: number;
  /** Highest value within 1.5 x IQR above Q3 (the upper whisker). */
  upper: number;
  max: number;
  /** Sample variance (n - 1); 0 for a single value. */
  variance: number;
  stdDev: number;
  /** Population skewness g1; NaN below 3 values or for a constant series. */
  skewness: number;
  /** Excess kurtosis g2 (0 for a normal distribution); NaN below 4 values or constant. */
  kurtosis: number;
  /** Median of |x - median|. */
  medianAbsDev: number;
  /** Values below the lower whisker, ascending. */
  lowOutliers: Float64Array;
  /** Values above the upper whisker, ascending. */
  highOutliers: Float64Array;
}

/** Indices [start, end) of a series. */
export interface Segment {
  start: number;
  end: number;
}

/** The best single split into two means (index in the finite values; -1 if none). */
export interface MeanShift {
  index: number;
  before: number;
  after: number;
  score: number;
}
