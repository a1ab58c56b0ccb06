// Store -> InsightSeries: one target's per-hop buckets over the tested range, read the way
// DataPointBuckets reads them (closed rollups where they answer whole buckets, raw samples
// and the ingest pipeline's memory elsewhere), plus, for detailed runs, the raw
// measurements per hop while the store still holds them.
import type { Principal } from '../account/principal.js';
import type { Store } from '../store/db.js';
import { sessionFor } from '../targets/service.js';
import { hostsOf } from '../targets/repository.js';
import { bucketGrid, maxHopOf } from '../data/buckets.js';
import { addPieces, coverPieces, type RecentSource } from '../data/sources.js';
import { queryKernels } from '../data/kernels.js';
import type { SampleColumns } from '../../wasm/kernel-types.js';
import { insightBucketMs, measurementsByHop, minuteAverages, seriesFromBuckets } from './build.js';
import type { InsightSeries } from './series.js';

/** Up to this many hop samples in the range, the detail charts read the raw samples. */
export const RawDetailLimit = 300_000;

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
  const buckets = addPieces(queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount }), pieces).finishBuckets();
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
    t1 = performance.now();
    let sent = 0;
    for (const h of series.hops) for (let b = 0; b < h.sent.length; b++) sent += h.sent[b];
    if (sent <= RawDetailLimit) {
      // Raw samples only (maxResolution 0): the detail charts show their distribution.
      const raw = await coverPieces((fn) => store.read(fn), s.id, start, end, 0, { start: grid.start, period: grid.period }, recent?.recent(s.id));
      series.rawLatencies = measurementsByHop(raw.flatMap((piece) => (piece.kind === 'samples' ? [piece.samples as SampleColumns] : [])));
    } else {
      // Too many to read in a second: per-minute averages from the 1-minute rollups.
      const minute = bucketGrid(start, end, 60_000);
      const minuteEnd = minute.start + minute.bucketCount * minute.period;
      const rows = await coverPieces((fn) => store.read(fn), s.id, minute.start, minuteEnd, minute.resolution, { start: minute.start, period: minute.period }, recent?.recent(s.id));
      series.rawLatencies = minuteAverages(addPieces(queryKernels().begin({ start: minute.start, period: minute.period, bucketCount: minute.bucketCount, hopCount }), rows).finishBuckets());
      series.detailSource = 'minute averages';
    }
    if (timings) timings.readMs += performance.now() - t1;
  }
  return series;
}
