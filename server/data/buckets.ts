// DataPointBuckets (spec 2 section 7): the timeline graph's data, bucketed by the WASM
// kernel over rollups and raw samples.
import type { DataPoint, DataPointBuckets } from '../contract/data.js';
import { parseTargetId } from '../contract/targets.js';
import type { Principal } from '../account/principal.js';
import { badRequest } from '../http/errors.js';
import { MaxEpochMs } from '../http/time.js';
import { expiredHorizons } from '../store/retention.js';
import type { Store } from '../store/db.js';
import { ConsoleRead } from './console-read.js';
import { closedReads } from '../store/closed-reads.js';
import { RollupResolutionsMs, ceilTo, floorTo } from '../rollups/levels.js';
import { sessionTimes } from './session-times.js';
import type { BucketResult } from '../../wasm/kernel-types.js';
import { CellFlag } from '../../wasm/kernel-types.js';
import { queryKernels } from './kernels.js';
import { addPieces, coverPieces, type Piece, type RecentSource } from './sources.js';
import { outagesOf } from './outages.js';

export const MaxBuckets = 10_000;
/** Ten years: a longer bucket would only ever hold one point. */
export const MaxPeriodSeconds = 10 * 366 * 24 * 3600;
const isTime = (ms: number) => Number.isFinite(ms) && Math.abs(ms) <= MaxEpochMs;

export interface BucketArgs {
  targetId: string;
  startTime: number;
  endTime: number;
  periodSeconds: number;
  includeJitter: boolean;
}

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());
const num = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * The grid of buckets: with a period of at least a rollup resolution, start and period
 * snap to that resolution, so closed rollups answer whole buckets exactly.
 */
export function bucketGrid(start: number, end: number, periodMs: number) {
  const res = [...RollupResolutionsMs].reverse().find((r) => r <= periodMs);
  const period = res ? ceilTo(periodMs, res) : periodMs;
  const gridStart = res ? floorTo(start, res) : start;
  const bucketCount = Math.max(1, Math.ceil((end - gridStart) / period));
  return { start: gridStart, period, bucketCount, resolution: res ?? 0 };
}

/** With `source` (the ingest pipeline), recent data of open sessions is read from memory. */
export async function dataPointBuckets(store: Store, p: Principal, args: BucketArgs, source?: RecentSource): Promise<DataPointBuckets> {
  const s = await sessionTimes(store, p, args.targetId, source);
  const requestedHop = parseTargetId(args.targetId)?.hop;
  if (!isTime(args.startTime) || !isTime(args.endTime)) throw badRequest('startTime and endTime must be times between the years -271821 and 275760.');
  if (!(args.endTime > args.startTime)) throw badRequest('endTime must be after startTime.');
  if (!(args.periodSeconds > 0 && args.periodSeconds <= MaxPeriodSeconds)) {
    throw badRequest(`periodSeconds must be above 0 and at most ${MaxPeriodSeconds} (ten years).`);
  }
  // A range that reaches back past a retention tier comes from the rollups that still hold
  // it: its buckets are at least as long as their rows (server/store/retention.ts).
  const expired = expiredHorizons(store);
  const tierPeriod = args.startTime < expired.minute ? 600_000 : args.startTime < expired.raw ? 60_000 : 0;
  const grid = bucketGrid(args.startTime, args.endTime, Math.max(args.periodSeconds * 1000, tierPeriod));
  if (grid.bucketCount > MaxBuckets) throw badRequest(`That is ${grid.bucketCount} buckets; ask for at most ${MaxBuckets} (a longer period).`);

  const end = grid.start + grid.bucketCount * grid.period;
  // Closed rows read from the store are kept for the next call of the same range (an old
  // range's graphs of several hops, a reload): server/store/closed-reads.ts. The points carry
  // every statistic of one hop (the requested one, else the target's) and the lean ones of the
  // others: the store is asked for no more (sources.ts storePieces).
  const detailHop = requestedHop || s.targetHop || undefined;
  const [pieces, outages] = await Promise.all([
    coverPieces((fn) => store.read(fn, ConsoleRead), s.id, grid.start, end, grid.resolution, grid, source?.recent(s.id), undefined, closedReads(store), detailHop),
    // Why a stretch has no samples (issue 40 item 2): the graphs draw the gap with its reason.
    store.read((q) => outagesOf(q, s.agentId, grid.start, end), ConsoleRead),
  ]);
  const hopCount = Math.max(1, requestedHop ?? 1, ...pieces.map(maxHopOf));

  const acc = addPieces(queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount }), pieces);
  // Views of the kernel's memory: toPoints reads them at once, before any other kernel call.
  const result = acc.finishBuckets({ views: true });
  return {
    Points: toPoints(result, requestedHop || undefined, args.includeJitter, s.targetHop || undefined),
    FirstDatapoint: iso(s.firstSample),
    MostRecentDatapoint: iso(s.latestSample),
    Outages: outages,
  };
}

/** The deepest hop a piece holds (the grid needs every hop that has data). */
export function maxHopOf(piece: Piece): number {
  const hops = piece.kind === 'rows' ? piece.rows.hop : piece.samples.hop;
  let m = 0;
  for (let i = 0; i < hops.length; i++) if (hops[i] > m) m = hops[i];
  return m;
}

/**
 * Points of the buckets that hold data. `routeEnd` (the hop where the target answers) cuts
 * the per-hop route arrays there, as the grid does: deeper hops only come from rounds that
 * lost the probe at the target's TTL.
 */
export function toPoints(r: BucketResult, hop: number | undefined, includeJitter: boolean, routeEnd?: number): DataPoint[] {
  const points: DataPoint[] = [];
  const H = r.hopCount;
  const shown = routeEnd ? Math.min(H, routeEnd) : H;
  let sampleIndex = 0;
  for (let b = 0; b < r.bucketCount; b++) {
    const base = b * H;
    let any = false;
    let startTrace = false;
    for (let h = 0; h < H; h++) {
      if (r.count[base + h] > 0 || r.flags[base + h] !== 0) any = true;
      if (r.flags[base + h] & CellFlag.IsStartTrace) startTrace = true;
    }
    if (!any) continue;
    // Without a hop, the target's own row: where the target answers, else the last hop of
    // the route in this bucket.
    const h = (hop ?? routeEnd ?? (r.routeLength[b] || H)) - 1;
    const c = base + h;
    const count = r.count[c];
    // Plain loops: Array.from with a callback per hop was most of this function's time.
    const latencies = new Array<number | null>(shown);
    const sent = new Array<number>(shown);
    const lostPerHop = new Array<number>(shown);
    for (let k = 0; k < shown; k++) {
      const v = r.average[base + k];
      latencies[k] = Number.isNaN(v) ? null : v;
      sent[k] = r.count[base + k];
      lostPerHop[k] = r.lost[base + k];
    }
    points.push({
      Period: new Date(r.start + b * r.period).toISOString(),
      IsStartTrace: startTrace,
      UnitNumber: b,
      FirstLatency: num(r.first[c]),
      LatencyMinimum: num(r.min[c]),
      LatencyMaximum: num(r.max[c]),
      Jitter: includeJitter ? num(r.jitter[c]) : null,
      AverageLatency: num(r.average[c]),
      LatencyCount: count,
      HasNotParticipating: (r.flags[c] & CellFlag.HasNotParticipating) !== 0,
      LostPacketCount: r.lost[c],
      SampleSetIndexStart: sampleIndex,
      SampleSetIndexEnd: sampleIndex + count,
      RouteBitMask: r.routeBitMask[b],
      RouteLength: r.routeLength[b],
      RouteHostLatencies: latencies,
      RouteHostSentCount: sent,
      RouteHostLostCount: lostPerHop,
    });
    sampleIndex += count;
  }
  return points;
}
