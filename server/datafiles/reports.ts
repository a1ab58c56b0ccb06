// The CSV and JSON reports of a target: per-hop statistics of a range (like mtr's and
// Trippy's reports: sent, lost, loss %, last, average, best, worst) taken from the same
// TraceGraphRows the grid shows, and the raw samples of a range.
import type { Principal } from '../account/principal.js';
import { isSpecialLatency, LatencyCode } from '../../engine/latency-codes.js';
import type { DataService } from '../data/service.js';
import type { Queryable, Store } from '../store/db.js';
import { hostsOf } from '../targets/repository.js';
import { selection, type DownloadArgs } from './export.js';
import { samplesInSql, selectSamples, selectionStatsSql, sessionSamplesSql, type SampleSelection } from './samples-sql.js';

export interface HopReportRow {
  [k: string]: string | number | null;
  Hop: number;
  IP: string;
  DNSName: string;
  Sent: number;
  Lost: number;
  LossPercent: number | null;
  Last: number | null;
  Average: number | null;
  Best: number | null;
  Worst: number | null;
}
export const HopReportColumns = ['Hop', 'IP', 'DNSName', 'Sent', 'Lost', 'LossPercent', 'Last', 'Average', 'Best', 'Worst'] as const;

export interface HopReport {
  TargetID: number;
  Target: string;
  Begin: string | null;
  End: string | null;
  Hops: HopReportRow[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function hopReport(store: Store, data: DataService, p: Principal, args: DownloadArgs): Promise<HopReport> {
  const { session: s, sel } = await selection(store, p, args);
  // Without times, the whole session: from its first to its latest sample.
  const from = args.BeginTime === undefined ? (s.firstSample ?? s.startTime) : sel.from;
  const to = args.EndTime === undefined ? Math.max(from, s.latestSample ?? from) : sel.to;
  const rows = await data.traceGraphRows(p, {
    requests: [{ ID: String(s.id), Start: new Date(from).toISOString(), End: new Date(to).toISOString() }],
    columnNames: [],
    listType: 'Target',
    uniqueID: String(s.id),
  });
  const current = (v: number | null) => (v === null || isSpecialLatency(v) ? null : v);
  return {
    TargetID: s.id,
    Target: s.targetName || s.originalTarget,
    Begin: iso(from),
    End: iso(to),
    Hops: rows.Rows.filter((r) => r.HopNum > 0).map((r) => ({
      Hop: r.HopNum,
      IP: r.IP,
      DNSName: r.DNSName,
      Sent: r.TotalCount,
      Lost: r.TotalCount - r.GoodCount,
      LossPercent: r.PL,
      Last: current(r.Current),
      Average: r.Average,
      Best: r.Minimum,
      Worst: r.Maximum,
    })),
  };
}

export interface SampleReportRow {
  [k: string]: string | number | null;
  Time: string;
  Hop: number;
  IP: string;
  LatencyMs: number | null;
  Status: string;
}
export const SampleReportColumns = ['Time', 'Hop', 'IP', 'LatencyMs', 'Status'] as const;

const statusOf = (latency: number) =>
  !isSpecialLatency(latency)
    ? 'ok'
    : latency === LatencyCode.Timeout
      ? 'timeout'
      : latency === LatencyCode.NotParticipating
        ? 'not participating'
        : latency === LatencyCode.StopStart
          ? 'stop/start'
          : 'other';

/** The newest `max` samples of a selection in time order, by SQL where the store has it in a table. */
async function newestSamples(q: Queryable, sel: SampleSelection, max: number): Promise<{ cut: boolean; time: ArrayLike<number>; hop: ArrayLike<number>; latency: ArrayLike<number> }> {
  if (!samplesInSql(q)) {
    const r = await selectSamples(q, { ...sel, limit: max });
    return { cut: r.all.n > max, time: r.time, hop: r.hop, latency: r.latency };
  }
  const all = await q.one<{ n: number }>(selectionStatsSql(sel));
  const cut = all!.n > max;
  const [time, hop, latency] = await q.numbers(sessionSamplesSql(cut ? { ...sel, limit: max } : { ...sel, ordered: true }));
  return { cut, time, hop, latency };
}

/** The newest MaxSamples samples of the range, in time order; `cut` when there were more. */
export async function samplesReport(store: Store, p: Principal, args: DownloadArgs & { MaxSamples: number }) {
  const { session: s, sel } = await selection(store, p, args);
  return store.read(async (q) => {
    const { cut, time, hop, latency } = await newestSamples(q, sel, args.MaxSamples);
    const ip = new Map((await hostsOf(q, [s.id])).map((h) => [h.hop, h.address]));
    const rows: SampleReportRow[] = [];
    for (let i = 0; i < time.length; i++) {
      const l = latency[i];
      rows.push({ Time: new Date(time[i]).toISOString(), Hop: hop[i], IP: ip.get(hop[i]) ?? '', LatencyMs: isSpecialLatency(l) ? null : l, Status: statusOf(l) });
    }
    return { session: s, cut, rows };
  });
}
