// The Path view operation (issue 44; docs/path-view.md): one service function for the REST
// route (plugin.ts) and the hub method PathView. It reads through the data service's own
// operations (TraceGraphRows, DataPointBuckets), so a caller's rights and a LiveShare
// visitor's scope are checked exactly as on the grid and the graphs, plus the hop hosts
// minute by minute (repository.ts) for the edges and route changes.
import type { Principal } from '../account/principal.js';
import { MaxPathViewRangeMs, type PathStripInterval, type PathView, type PathViewKind } from '../contract/path-view.js';
import { parseRecordId } from '../http/schemas.js';
import { parseTime } from '../http/time.js';
import { badRequest } from '../http/errors.js';
import type { DataService } from '../data/service.js';
import type { DataPointBuckets } from '../contract/data.js';
import type { TargetRow } from '../contract/targets.js';
import type { OpenHopHosts } from '../hop-details/service.js';
import { HopHostMinuteMs } from '../hop-details/tally.js';
import type { Store } from '../store/db.js';
import { sessionFor } from '../targets/service.js';
import { buildPathGraph, minutePaths, type TraceHop, type TraceMinutePath, type TracePath } from './graph.js';
import { minutePathsOf } from './repository.js';
import { stripIntervalSeconds, stripOf } from './strip.js';

export interface PathViewDeps {
  store: Store;
  data: DataService;
  /** The ingest pipeline: the hop hosts of the minute it still counts in memory. */
  open?: Partial<OpenHopHosts>;
}

export interface PathViewRequest {
  kind: PathViewKind;
  id: string;
  start: string | number;
  end: string | number;
}

/** The sessions of the view: the target's, or every open target of the summary (as its grid lists them). */
async function sessionIdsOf(deps: PathViewDeps, p: Principal, req: PathViewRequest): Promise<number[]> {
  // The same checks as the grid's: another account's target, or one outside a visitor's link, is not found.
  if (req.kind === 'Target') return [(await sessionFor(deps.store, p, req.id)).id];
  const id = req.id.replace(/^SUM-/i, '');
  const rows = await deps.data.traceGraphRows(p, { listType: 'Summary', uniqueID: id, columnNames: [], requests: [] });
  return [...new Set(rows.Rows.map((r) => parseRecordId(r.UniqueID.split('_h_')[0])).filter((x): x is number => x !== undefined))];
}

const hopOf = (r: TargetRow): TraceHop => ({
  hop: r.HopNum,
  // A hop that sent nothing in the range has no loss to judge (NaN), as the grid reads it.
  lossPercent: r.TotalCount > 0 && typeof r.PL === 'number' ? r.PL : NaN,
  answered: r.TotalCount > 0 && (r.PL ?? 0) < 100,
  latencyMs: r.Average,
  hosts: r.HopDetails?.Hosts ?? [],
  name: r.DNSName,
});

export async function pathView(deps: PathViewDeps, p: Principal, req: PathViewRequest): Promise<PathView> {
  const from = parseTime(req.start, 'start');
  const to = parseTime(req.end, 'end');
  if (!(to > from)) throw badRequest('end must be after start.');
  if (to - from > MaxPathViewRangeMs) throw badRequest('The Path view reads at most 31 days at once: choose a shorter range.');
  const ids = await sessionIdsOf(deps, p, req);
  const range = [{ ID: '', Start: String(from), End: String(to) }];
  const interval = stripIntervalSeconds(to - from);
  const [perSession, minutes] = await Promise.all([
    Promise.all(
      ids.map(async (id) => {
        const [rows, buckets] = await Promise.all([
          deps.data.traceGraphRows(p, { listType: 'Target', uniqueID: String(id), columnNames: [], requests: [{ ...range[0], ID: String(id) }] }),
          deps.data.dataPointBuckets(p, { targetId: String(id), startTime: from, endTime: to, periodSeconds: interval, includeJitter: false }),
        ]);
        return { id, rows, buckets };
      }),
    ),
    deps.store.read((q) => minutePathsOf(q, ids, from, to)),
  ]);
  const traces: TracePath[] = perSession.map(({ id, rows }) => {
    const header = rows.Rows.find((r) => r.HopNum === 0)!;
    const hops = rows.Rows.filter((r) => r.HopNum > 0).map(hopOf);
    return {
      session: {
        SessionId: id,
        TargetId: String(id),
        AgentId: rows.Details?.HubSentinelID ?? header.HubSentinelID,
        AgentName: header.Columns.Agent ?? '',
        TargetAddress: header.IP,
        TargetName: header.DNSName,
      },
      hops,
      minutes: [...(minutes.get(id) ?? []), ...openMinutes(deps, id, from, to)],
    };
  });
  const g = buildPathGraph(traces);
  const strip: PathStripInterval[] = stripOf(from, interval, perSession.map((x) => x.buckets as DataPointBuckets));
  return {
    Kind: req.kind,
    ID: req.id,
    Start: new Date(from).toISOString(),
    End: new Date(to).toISOString(),
    Sessions: g.sessions,
    Nodes: g.nodes,
    Edges: g.edges,
    RouteChanges: g.routeChanges,
    StripIntervalSeconds: interval,
    Strip: strip,
  };
}

/** The minute ingest still counts in memory (not stored yet), inside the range. */
function openMinutes(deps: PathViewDeps, sessionId: number, from: number, to: number): TraceMinutePath[] {
  const first = Math.floor(from / HopHostMinuteMs) * HopHostMinuteMs;
  return minutePaths((deps.open?.openHopHosts?.(sessionId) ?? []).filter((r) => r.answers > 0 && r.minute >= first && r.minute < to));
}
