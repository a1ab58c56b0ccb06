// HopDetails: per hop, the box plot over time (at most 50 divisions, minutes as the base
// unit, spec 3 section 9), the kurtosis/skewness and deviation charts and a latency/loss
// chart, from the raw samples when the store still holds them, else the bucket averages.
import type { BoxPlotRow, HopDetail, WisdomChart } from '../contract/insights.js';
import type { Description } from '../../wasm/stats-types.js';
import { stat } from './result.js';
import type { HopSeries, TestContext } from './series.js';

export const MaxDivisions = 50;
/** Division lengths in minutes: the first that gives at most 50 divisions is used. */
const StepsMinutes = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080];

export function divisionMinutes(rangeMs: number): number {
  const minutes = rangeMs / 60_000;
  return StepsMinutes.find((m) => minutes / m <= MaxDivisions) ?? Math.ceil(minutes / MaxDivisions);
}

const n = (v: number) => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null);

function boxRow(time: number, d: Description): BoxPlotRow {
  return {
    Time: new Date(time).toISOString(),
    Lower: n(d.lower), Q1: n(d.q1), Median: n(d.median), Mean: n(d.mean), Q3: n(d.q3), Upper: n(d.upper),
    // The chart needs the shape, not thousands of points: at most 20 each side.
    Outliers: [...d.lowOutliers.slice(0, 20), ...d.highOutliers.slice(-20)].map((v) => n(v) ?? 0),
    Skewness: n(d.skewness), Kurtosis: n(d.kurtosis), StdDev: n(d.stdDev), Variance: n(d.variance), MedianAbsDev: n(d.medianAbsDev),
  };
}

function valuesOf(ctx: TestContext, h: HopSeries): { time: ArrayLike<number>; latency: ArrayLike<number> } {
  const raw = ctx.series.rawLatencies?.(h.hop);
  if (raw && raw.latency.length > 0) return raw;
  const s = ctx.series;
  return { time: Float64Array.from({ length: s.bucketCount }, (_, b) => s.start + b * s.bucketMs), latency: h.latency };
}

export function hopDetail(ctx: TestContext, h: HopSeries): HopDetail {
  const s = ctx.series;
  const stepMin = divisionMinutes(s.end - s.start);
  const stepMs = stepMin * 60_000;
  const divisions = Math.max(1, Math.ceil((s.end - s.start) / stepMs));
  const { time, latency } = valuesOf(ctx, h);
  // Samples are in time order: one pass cuts them into divisions.
  const rows: BoxPlotRow[] = [];
  let i = 0;
  for (let k = 0; k < divisions; k++) {
    const from = s.start + k * stepMs;
    const to = from + stepMs;
    while (i < time.length && time[i] < from) i++;
    const begin = i;
    while (i < time.length && time[i] < to) i++;
    const slice = ArrayBuffer.isView(latency) ? (latency as Float64Array).subarray(begin, i) : Array.prototype.slice.call(latency, begin, i);
    rows.push(boxRow(from, ctx.stats.describe(slice)));
  }
  const whole = ctx.stats.describe(latency);
  const minutesAt = rows.map((_, k) => k * stepMin);
  const chart = (Title: string, Series: string[], SeriesData: (number | null)[][]): WisdomChart => ({ Title, Series, SeriesData, TimeSeries: minutesAt, TimeBaseUnitStep: stepMin, ColSize: stepMin });
  const lossPerDivision = rows.map((_, k) => {
    let sent = 0;
    let lost = 0;
    for (let b = 0; b < s.bucketCount; b++) {
      const t = s.start + b * s.bucketMs;
      if (t >= s.start + k * stepMs && t < s.start + (k + 1) * stepMs) {
        sent += h.sent[b];
        lost += h.lost[b];
      }
    }
    return sent ? Math.round((lost / sent) * 1000) / 10 : null;
  });
  return {
    HostId: `${s.targetId}_h_${h.hop}`,
    HopNumber: h.hop,
    Name: h.name,
    Details: [
      stat('Count', 'Samples', whole.count, '', false, 0),
      stat('Median', 'Median latency', whole.median, 'ms', true, 2),
      stat('Mean', 'Mean latency', whole.mean, 'ms', false, 2),
      stat('StdDev', 'Standard deviation', whole.stdDev, 'ms', false, 2),
      stat('MedianAbsDev', 'Median absolute deviation', whole.medianAbsDev, 'ms', false, 2),
      stat('Skewness', 'Skewness', whole.skewness, '', false, 2),
      stat('Kurtosis', 'Kurtosis (excess)', whole.kurtosis, '', false, 2),
    ],
    WisdomCharts: [
      chart('Kurtosis and skewness', ['Kurtosis', 'Skewness'], [rows.map((r) => r.Kurtosis), rows.map((r) => r.Skewness)]),
      chart('Deviation', ['Standard deviation', 'Median absolute deviation'], [rows.map((r) => r.StdDev), rows.map((r) => r.MedianAbsDev)]),
      chart('Latency and loss', ['Median latency (ms)', 'Loss (%)'], [rows.map((r) => r.Median), lossPerDivision]),
    ],
    BoxPlotChart: { Title: `Latency of hop #${h.hop} (${h.name})`, Data: rows },
  };
}

/** Details of the given hops, each computed once. */
export function hopDetails(ctx: TestContext, hops: Iterable<number>): Map<number, HopDetail> {
  const out = new Map<number, HopDetail>();
  for (const hop of hops) {
    const h = ctx.series.hops[hop - 1];
    if (h && !out.has(hop)) out.set(hop, hopDetail(ctx, h));
  }
  return out;
}
