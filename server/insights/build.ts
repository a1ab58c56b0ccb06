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
  const times = new Map<number, number[]>();
  const values = new Map<number, number[]>();
  for (const p of pieces) {
    for (let i = 0; i < p.time.length; i++) {
      const v = p.latency[i];
      if (!(v >= SpecialLatencyBase) || !Number.isFinite(v)) continue; // codes and NaN are not measurements
      const hop = p.hop[i];
      let t = times.get(hop);
      if (!t) {
        times.set(hop, (t = []));
        values.set(hop, []);
      }
      t.push(p.time[i]);
      values.get(hop)!.push(v);
    }
  }
  return (hop) => ({ time: Float64Array.from(times.get(hop) ?? []), latency: Float64Array.from(values.get(hop) ?? []) });
}
