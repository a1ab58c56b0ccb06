// The ingest worker (Piscina): validates sample batches and computes rollup rows with the
// WASM bucket kernel. Stateless: every task carries what it needs.
import { loadKernels, type Kernels } from '../../wasm/loader.js';
import { rollupRowsFromBuckets, type RollupRows } from '../../wasm/rollup-rows.js';
import { LatencyCode, SpecialLatencyBase } from '../../engine/latency-codes.js';
import type { SampleBatch } from './sample-columns.js';

let kernels: Kernels | undefined;
const k = () => (kernels ??= loadKernels());

const storedCodes = new Set<number>([LatencyCode.Timeout, LatencyCode.NotParticipating, LatencyCode.StopStart]);
export const MaxHop = 255;

export interface PrepareResult {
  batch: SampleBatch;
  dropped: number;
}

/**
 * Keeps the rows that can be stored: a finite time, a hop 0..255, and a latency that is a
 * measurement (>= 0) or a code worth keeping (Pending and Ignore carry no outcome).
 */
export function prepare(batch: SampleBatch): PrepareResult {
  const n = batch.length;
  let w = 0;
  const { session, time, hop, latency } = batch;
  for (let i = 0; i < n; i++) {
    const t = time[i];
    const h = hop[i];
    const l = latency[i];
    const ok =
      Number.isFinite(t) && t > 0 && h >= 0 && h <= MaxHop && Number.isFinite(l) && (l >= 0 || (l < SpecialLatencyBase && storedCodes.has(l)));
    if (!ok) continue;
    if (w !== i) {
      session[w] = session[i];
      time[w] = t;
      hop[w] = h;
      latency[w] = l;
    }
    w++;
  }
  return {
    batch: { length: w, session: session.subarray(0, w), time: time.subarray(0, w), hop: hop.subarray(0, w), latency: latency.subarray(0, w) },
    dropped: n - w,
  };
}

export interface SampleRollupJob {
  kind: 'samples';
  start: number;
  end: number;
  resolution: number;
  time: Float64Array;
  hop: Int32Array;
  latency: Float64Array;
}

export interface RowsRollupJob {
  kind: 'rows';
  start: number;
  end: number;
  resolution: number;
  rows: RollupRows;
}

function maxHop(hops: ArrayLike<number>): number {
  let m = 1;
  for (let i = 0; i < hops.length; i++) if (hops[i] > m) m = hops[i];
  return m;
}

/** Orders samples by time (stable), as the kernel's first/last/jitter need. */
function inTimeOrder(job: SampleRollupJob) {
  const n = job.time.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (job.time[i] < job.time[i - 1]) sorted = false;
  if (sorted) return job;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => job.time[a] - job.time[b] || a - b);
  return {
    ...job,
    time: Float64Array.from(idx, (i) => job.time[i]),
    hop: Int32Array.from(idx, (i) => job.hop[i]),
    latency: Float64Array.from(idx, (i) => job.latency[i]),
  };
}

/** Rolls raw samples or finer rollup rows of [start, end) up into rows of `resolution`. */
export function rollup(job: SampleRollupJob | RowsRollupJob): RollupRows {
  const bucketCount = Math.max(1, Math.round((job.end - job.start) / job.resolution));
  if (job.kind === 'samples') {
    const s = inTimeOrder(job);
    const spec = { start: job.start, period: job.resolution, bucketCount, hopCount: maxHop(s.hop) };
    return rollupRowsFromBuckets(k().bucketSamples(s, spec));
  }
  const spec = { start: job.start, period: job.resolution, bucketCount, hopCount: maxHop(job.rows.hop) };
  return rollupRowsFromBuckets(k().mergeRollups(job.rows, spec));
}

export default function task(message: { op: 'prepare'; batch: SampleBatch } | { op: 'rollup'; job: SampleRollupJob | RowsRollupJob }) {
  return message.op === 'prepare' ? prepare(message.batch) : rollup(message.job);
}
