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
import { hopDetailsOfMany, type OpenHopHosts } from '../hop-details/service.js';
import { HopHostMinuteMs } from '../hop-details/tally.js';
import type { Store } from '../store/db.js';
import { sessionFor } from '../targets/service.js';
import { buildPathGraph, minutePaths, type TraceMinutePath, type TracePath } from './graph.js';
import { hopsOfBuckets } from './hop-figures.js';
import { findSessions, hostsOf } from '../targets/repository.js';
import { agentNames } from '../agents/repository.js';
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

export async function pathView(deps: PathViewDeps, p: Principal, req: PathViewRequest): Promise<PathView> {
  const from = parseTime(req.start, 'start');
  const to = parseTime(req.end, 'end');
  if (!(to > from)) throw badRequest('end must be after start.');
  if (to - from > MaxPathViewRangeMs) throw badRequest('The Path view reads at most 31 days at once: choose a shorter range.');
  const ids = await sessionIdsOf(deps, p, req);
  const interval = stripIntervalSeconds(to - from);
  // The buckets (the strip, and each hop's figures) through the data service, which checks each
  // target again; the rest read directly for the sessions checked above.
  const [buckets, stored] = await Promise.all([
    Promise.all(ids.map((id) => deps.data.dataPointBuckets(p, { targetId: String(id), startTime: from, endTime: to, periodSeconds: interval, includeJitter: false }))),
    deps.store.read(async (q) => {
      const sessions = await findSessions(q, ids);
      const [hosts, agents, minutes, details] = await Promise.all([
        hostsOf(q, ids),
        agentNames(q, sessions.map((s) => s.sentinelId)),
        minutePathsOf(q, ids, from, to),
        hopDetailsOfMany(q, ids.map((sessionId) => ({ sessionId, from, to })), deps.open?.openHopHosts ? { openHopHosts: (id: number) => deps.open!.openHopHosts!(id) } : undefined),
      ]);
      return { sessions, hosts, agents, minutes, details };
    }),
  ]);
  const traces: TracePath[] = ids.flatMap((id, k) => {
    const s = stored.sessions.find((x) => x.id === id);
    if (!s) return [];
    const names = new Map(stored.hosts.filter((h) => h.sessionId === id).map((h) => [h.hop, h.name || h.dnsName]));
    return [
      {
        session: {
          SessionId: id,
          TargetId: String(id),
          AgentId: s.sentinelId,
          AgentName: stored.agents.get(s.sentinelId) ?? '',
          TargetAddress: s.targetIp,
          TargetName: s.targetName || s.originalTarget,
        },
        hops: hopsOfBuckets(buckets[k], stored.details.get(id) ?? new Map(), names),
        minutes: [...(stored.minutes.get(id) ?? []), ...openMinutes(deps, id, from, to)],
      },
    ];
  });
  const g = buildPathGraph(traces);
  const strip: PathStripInterval[] = stripOf(from, interval, buckets);
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
