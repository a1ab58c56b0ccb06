// Store -> InsightSeries: one target's per-hop buckets over the tested range, read the way
// DataPointBuckets reads them (closed rollups where they answer whole buckets, raw samples
// and the ingest pipeline's memory elsewhere), plus, for detailed runs, the raw
// measurements per hop while the store still holds them.
import type { Principal } from '../account/principal.js';
import type { Store } from '../store/db.js';
import { sessionFor } from '../targets/service.js';
import { hostsOf } from '../targets/repository.js';
import { bucketGrid, maxHopOf } from '../data/buckets.js';
import { coverPieces, type RecentSource } from '../data/sources.js';
import { queryKernels } from '../data/kernels.js';
import type { SampleColumns } from '../../wasm/kernel-types.js';
import { insightBucketMs, measurementsByHop, seriesFromBuckets } from './build.js';
import type { InsightSeries } from './series.js';

export interface LoadTimings {
  readMs: number;
  kernelMs: number;
}

export async function loadSeries(
  store: Store,
  p: Principal,
  targetId: string,
  start: number,
  end: number,
  withRaw: boolean,
  recent?: RecentSource,
  timings?: LoadTimings,
): Promise<InsightSeries> {
  const s = await sessionFor(store, p, targetId);
  const hosts = await store.read((q) => hostsOf(q, [s.id]));
  const grid = bucketGrid(start, end, insightBucketMs(end - start, s.traceIntervalMs));
  const gridEnd = grid.start + grid.bucketCount * grid.period;
  let t0 = performance.now();
  const pieces = await coverPieces((fn) => store.read(fn), s.id, grid.start, gridEnd, grid.resolution, { start: grid.start, period: grid.period }, recent?.recent(s.id));
  let t1 = performance.now();
  if (timings) timings.readMs += t1 - t0;
  const hopCount = Math.max(1, ...pieces.map(maxHopOf), ...hosts.map((h) => h.hop));
  const acc = queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount });
  for (const piece of pieces) {
    if (piece.kind === 'rows') acc.addRollups(piece.rows);
    else acc.addSamples(piece.samples);
  }
  const buckets = acc.finishBuckets();
  t0 = performance.now();
  if (timings) timings.kernelMs += t0 - t1;
  const series = seriesFromBuckets(buckets, {
    targetId: String(s.id),
    targetName: s.description || (s.targetName && s.targetName !== s.targetIp ? `${s.targetName} (${s.targetIp})` : s.targetIp || s.originalTarget),
    targetAddress: s.targetIp || null,
    start: grid.start,
    end: Math.min(end, gridEnd),
    traceIntervalMs: s.traceIntervalMs,
    hosts: hosts.map((h) => ({ hop: h.hop, address: h.address || null, name: h.name || h.dnsName || h.address || '' })),
  });
  if (withRaw) {
    // Raw samples only (maxResolution 0): the detail charts want the distribution.
    t1 = performance.now();
    const raw = await coverPieces((fn) => store.read(fn), s.id, start, end, 0, { start: grid.start, period: grid.period }, recent?.recent(s.id));
    if (timings) timings.readMs += performance.now() - t1;
    series.rawLatencies = measurementsByHop(raw.flatMap((piece) => (piece.kind === 'samples' ? [piece.samples as SampleColumns] : [])));
  }
  return series;
}
