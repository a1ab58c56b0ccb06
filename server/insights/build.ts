// Series from the bucket kernel's answer: the one place where buckets become the per-hop
// series every test reads. The store path (load.ts) and the scenario models use it alike.
import type { BucketResult, SampleColumns } from '../../wasm/kernel-types.js';
import { SpecialLatencyBase } from '../../engine/latency-codes.js';
import type { HopSeries, InsightSeries } from './series.js';

export interface HopName {
  hop: number;
  address: string | null;
  name: string;
}

export interface SeriesMeta {
  targetId: string;
  targetName: string;
  targetAddress: string | null;
  start: number;
  end: number;
  traceIntervalMs: number;
  hosts: HopName[];
}

/** Bucket length: about 5 probes a bucket, at most ~720 buckets over the range. */
export function insightBucketMs(rangeMs: number, traceIntervalMs: number): number {
  return Math.max(traceIntervalMs * 5, Math.ceil(rangeMs / 720));
}

export function seriesFromBuckets(r: BucketResult, meta: SeriesMeta): InsightSeries {
  const H = r.hopCount;
  const B = r.bucketCount;
  const byHop = new Map(meta.hosts.map((h) => [h.hop, h]));
  // The target's hop: the first hop whose address is the target's.
  const targetHop = meta.targetAddress ? (meta.hosts.filter((h) => h.address === meta.targetAddress).map((h) => h.hop).sort((a, b) => a - b)[0] ?? null) : null;
  // Deeper rows than the target's come only from rounds that lost the probe at its TTL.
  const last = targetHop ?? deepestWithData(r);
  const hops: HopSeries[] = [];
  for (let h = 1; h <= Math.min(H, last); h++) {
    const latency = new Float64Array(B);
    const jitter = new Float64Array(B);
    const sent = new Int32Array(B);
    const lost = new Int32Array(B);
    for (let b = 0; b < B; b++) {
      const c = b * H + (h - 1);
      latency[b] = r.average[c];
      jitter[b] = r.jitter[c];
      sent[b] = r.count[c];
      lost[b] = r.lost[c];
    }
    const host = byHop.get(h);
    const answered = sent.some((s, b) => s > lost[b]);
    hops.push({
      hop: h,
      uniqueId: `${meta.targetId}_h_${h}`,
      name: host?.name || host?.address || (answered ? `hop ${h}` : '*'),
      address: host?.address || null,
      latency,
      jitter,
      sent,
      lost,
    });
  }
  return {
    targetId: meta.targetId,
    targetName: meta.targetName,
    start: r.start,
    end: meta.end,
    bucketMs: r.period,
    bucketCount: B,
    hops,
    targetHop: targetHop !== null && targetHop <= H ? targetHop : null,
    traceIntervalMs: meta.traceIntervalMs,
  };
}

function deepestWithData(r: BucketResult): number {
  let deepest = 0;
  for (let c = 0; c < r.count.length; c++) if (r.count[c] > 0) deepest = Math.max(deepest, (c % r.hopCount) + 1);
  return deepest;
}

/** Raw measurements per hop, time-ordered (samples in time order per hop, as stored). */
export function measurementsByHop(pieces: SampleColumns[]): (hop: number) => { time: Float64Array; latency: Float64Array } {
  // Two passes over typed arrays: count per hop, then fill (a million pushes cost more).
  const isMeasurement = (v: number) => v >= SpecialLatencyBase && Number.isFinite(v); // codes and NaN are not
  let maxHop = 0;
  for (const p of pieces) for (let i = 0; i < p.hop.length; i++) if (p.hop[i] > maxHop) maxHop = p.hop[i];
  const counts = new Int32Array(maxHop + 1);
  for (const p of pieces) for (let i = 0; i < p.time.length; i++) if (p.hop[i] > 0 && isMeasurement(p.latency[i])) counts[p.hop[i]]++;
  const times = Array.from(counts, (c) => new Float64Array(c));
  const values = Array.from(counts, (c) => new Float64Array(c));
  const fill = new Int32Array(maxHop + 1);
  for (const p of pieces) {
    for (let i = 0; i < p.time.length; i++) {
      const hop = p.hop[i];
      const v = p.latency[i];
      if (hop <= 0 || !isMeasurement(v)) continue;
      const k = fill[hop]++;
      times[hop][k] = p.time[i];
      values[hop][k] = v;
    }
  }
  const none = { time: new Float64Array(0), latency: new Float64Array(0) };
  return (hop) => (hop > 0 && hop <= maxHop ? { time: times[hop], latency: values[hop] } : none);
}

/** Per-minute averages per hop (buckets of one minute) as the detail charts' values. */
export function minuteAverages(r: BucketResult): (hop: number) => { time: Float64Array; latency: Float64Array } {
  return (hop) => {
    if (hop < 1 || hop > r.hopCount) return { time: new Float64Array(0), latency: new Float64Array(0) };
    const time: number[] = [];
    const latency: number[] = [];
    for (let b = 0; b < r.bucketCount; b++) {
      const v = r.average[b * r.hopCount + hop - 1];
      if (!Number.isFinite(v)) continue;
      time.push(r.start + b * r.period);
      latency.push(v);
    }
    return { time: Float64Array.from(time), latency: Float64Array.from(latency) };
  };
}
