// TraceGraphRows (spec 2 section 7): the rows of the trace grid (one per hop, plus the
// header row) or of a summary grid (one per target), with statistics over the requested
// range computed by the WASM row-statistics kernel.
import { Claim } from '../contract/account.js';
import { LocalMachineAgentId, SessionState } from '../contract/sessions.js';
import { agentNames } from '../agents/repository.js';
import { MaxRecordId, rowId, type GraphRowsRequest, type GraphRowsResult, type TargetRow, type TargetListType } from '../contract/targets.js';
import { LatencyCode, latencyDisplayText } from '../contract/latency.js';
import type { Principal } from '../account/principal.js';
import { badRequest, notFound } from '../http/errors.js';
import { summaryOutsideLiveShare } from '../liveshare/scope.js';
import { parseOptionalTime } from '../http/time.js';
import { parseIdText, parseInt32Id, parseRecordId } from '../http/schemas.js';
import type { Queryable, Store } from '../store/db.js';
import { ConsoleRead } from './console-read.js';
import { findSessions, hostsOf, type HostRecord, type SessionRecord } from '../targets/repository.js';
import { sessionFor } from '../targets/service.js';
import { isWatched, watchedSessions } from '../alerts/repository.js';
import { configurationDisplays } from '../settings/repository.js';
import type { RowStatsResult } from '../../wasm/kernel-types.js';
import { queryKernels } from './kernels.js';
import { addPieces, coverPieces, type RecentSource } from './sources.js';
import { maxHopOf } from './buckets.js';
import { hopDetailColumnTexts, type HopDetails } from '../contract/hop-details.js';
import { hopDetailsOf, hopDetailsOfMany, type OpenHopHosts } from '../hop-details/service.js';
import { routeLength, targetHopOf } from './route-length.js';
import { packetTypeText } from './packet-type.js';
import { engineSettingsOf } from '../targets/engine-settings.js';

/** The ingest pipeline: recent samples, and the hop hosts of the open minute. */
export type RowsSource = RecentSource & Partial<OpenHopHosts>;
/** The hops of a running session whose newest probe has neither answered nor timed out. */
export type WaitingHops = (sessionId: number) => Promise<number[]>;

export interface GraphRowsArgs {
  requests: GraphRowsRequest[];
  columnNames: string[];
  listType: TargetListType;
  uniqueID: string;
}

/** Without a range, rows cover the default viewport: the last 10 minutes of data. */
export const DefaultRowsRangeMs = 10 * 60_000;

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());
const num = (v: number) => (Number.isNaN(v) ? null : v);

async function statsFor(q: Queryable, s: SessionRecord, from: number, to: number, hopCount: number, source?: RecentSource): Promise<RowStatsResult> {
  const pieces = await coverPieces((fn) => fn(q), s.id, from, to, Infinity, { start: from, period: to - from }, source?.recent(s.id), s.firstSample);
  return addPieces(queryKernels().beginRowStats({ from, to }, Math.max(1, hopCount, ...pieces.map(maxHopOf))), pieces).finishRowStats();
}

function rangeFor(s: SessionRecord, req: GraphRowsRequest | undefined): { from: number; to: number } {
  const end = parseOptionalTime(req?.End, 'End') ?? (s.latestSample ?? Date.now()) + 1;
  const start = parseOptionalTime(req?.Start, 'Start') ?? end - DefaultRowsRangeMs;
  if (!(end > start)) throw badRequest('End must be after Start.');
  return { from: start, to: end };
}

interface Display {
  warn: number;
  bad: number;
  scale: number;
  name: string;
  /** The name of the agent that runs the session (the Agent column). */
  agent: string;
  /** An enabled alert watches the target (HasAlert on its rows). */
  hasAlert?: boolean;
}

function hopRow(
  s: SessionRecord,
  hop: number,
  host: HostRecord | undefined,
  st: RowStatsResult,
  k: number,
  editable: boolean,
  d: Display,
  details: HopDetails | null,
  hops: number,
): TargetRow {
  const fmt = (v: number) => (Number.isNaN(v) ? '' : latencyDisplayText(v));
  const count = st.count[k] ?? 0;
  const lost = st.lost[k] ?? 0;
  const pl = num(st.lossPercent[k] ?? NaN);
  const dns = host?.name || host?.dnsName || '';
  const running = s.state === SessionState.Active;
  return {
    UniqueID: rowId(s.id, hop),
    DNSName: dns,
    IP: host?.address ?? '',
    HopNum: hop,
    HopDetails: details,
    Columns: {
      ...hopDetailColumnTexts(details),
      Hop: String(hop),
      // No probe sent in the range: no figure (issue 40 item 2), not a count of 0 lost.
      ErrCount: count > 0 ? String(lost) : '',
      PacketLoss: pl === null ? '' : pl.toFixed(1),
      IPAddress: host?.address || '*',
      DNSName: dns,
      Avg: fmt(st.average[k]),
      Min: fmt(st.min[k]),
      Max: fmt(st.max[k]),
      Cur: fmt(st.current[k]),
      User: host?.notes ?? '',
      Notes: host?.notes ?? '',
      Agent: d.agent,
      ConfigName: d.name,
      // The rows the target's window shows (route-length.ts), not the deepest TTL sampled.
      RouteLength: String(hops),
    },
    IsRunning: running,
    Editable: editable,
    HasAlert: d.hasAlert ?? false,
    GoodCount: st.goodCount[k] ?? 0,
    TotalCount: count,
    Average: num(st.average[k] ?? NaN),
    Minimum: num(st.min[k] ?? NaN),
    Maximum: num(st.max[k] ?? NaN),
    Current: num(st.current[k] ?? NaN),
    PL: pl,
    TraceInterval: s.traceIntervalMs / 1000,
    SentinelId: String(s.sentinelId),
    HubSentinelID: s.sentinelId,
    Start: iso(s.firstSample),
    End: iso(s.latestSample),
    TraceStart: new Date(s.startTime).toISOString(),
    TraceEnd: iso(s.endTime),
  };
}

const DefaultDisplay = { warn: 100, bad: 250, scale: 100, name: 'Default' };

/** The display values of each session (by id): its configuration's and its agent's name, two statements for all. */
async function displays(q: Queryable, sessions: SessionRecord[]): Promise<Map<number, Display>> {
  const [configs, agents] = await Promise.all([configurationDisplays(q, sessions.map((s) => s.configurationId)), agentNames(q, sessions.map((s) => s.sentinelId))]);
  return new Map(sessions.map((s) => [s.id, { ...(configs.get(s.configurationId) ?? DefaultDisplay), agent: agents.get(s.sentinelId)! }]));
}

/** The first hop at which the target's own address answered, if it ever did. */
export const targetHop = (s: SessionRecord, hosts: HostRecord[]): number | undefined => targetHopOf(s.targetIp, hosts);

/** The last hop that answered in the range (the target), else the deepest hop seen. */
function finalHop(st: RowStatsResult, hosts: HostRecord[]): number {
  for (let h = st.hopCount; h >= 1; h--) if ((st.goodCount[h - 1] ?? 0) > 0) return h;
  return Math.max(1, ...hosts.map((x) => x.hop));
}

const openHopHostsOf = (source?: RowsSource): OpenHopHosts | undefined =>
  source?.openHopHosts
    ? { openHopHosts: (id: number) => source.openHopHosts!(id), latestHopDetails: source.latestHopDetails ? (id: number) => source.latestHopDetails!(id) : undefined }
    : undefined;

async function detailsFor(q: Queryable, sessionId: number, range: { from: number; to: number }, source?: RowsSource) {
  return hopDetailsOf(q, sessionId, range.from, range.to, openHopHostsOf(source));
}

/**
 * Spec 2 latency code Pending: a hop whose newest probe has neither answered nor timed out when
 * its row is read shows Pending as its current value (its round is not stored yet, so it never
 * counts as loss). Only rows whose range reaches the present of a running session.
 */
function markPending(row: TargetRow, waiting: Set<number>, hop: number): void {
  if (!waiting.has(hop)) return;
  row.Current = LatencyCode.Pending;
  row.Columns.Cur = latencyDisplayText(LatencyCode.Pending);
}

async function waitingOf(s: SessionRecord, range: { to: number }, waitingHops?: WaitingHops): Promise<Set<number>> {
  if (!waitingHops || s.state !== SessionState.Active) return new Set();
  // A range that ends before the newest sample is history: nothing in it is still out.
  if (s.latestSample !== null && range.to <= s.latestSample) return new Set();
  return new Set(await waitingHops(s.id));
}

async function targetRows(store: Store, p: Principal, args: GraphRowsArgs, source?: RowsSource, waitingHops?: WaitingHops): Promise<GraphRowsResult> {
  const s = await sessionFor(store, p, args.uniqueID);
  const editable = p.claims.includes(Claim.TargetManagement);
  const range = rangeFor(s, args.requests[0]);
  const waiting = await waitingOf(s, range, waitingHops);
  return store.read(async (q) => {
    const hosts = await hostsOf(q, [s.id]);
    const hopCount = Math.max(0, ...hosts.map((h) => h.hop));
    const st = await statsFor(q, s, range.from, range.to, hopCount, source);
    const d = { ...(await displays(q, [s])).get(s.id)!, hasAlert: await isWatched(q, s.id) };
    const details = await detailsFor(q, s.id, range, source);
    const byHop = new Map(hosts.map((h) => [h.hop, h]));
    const rows: TargetRow[] = [];
    // The route ends where the target answers: deeper hops only come from rounds whose
    // probe at the target's TTL was lost (the next TTL then reaches the target again).
    const deepest = routeLength(s.targetIp, hosts, st.hopCount);
    for (let hop = 1; hop <= deepest; hop++) {
      const row = hopRow(s, hop, byHop.get(hop), st, hop - 1, editable, d, details.get(hop) ?? null, deepest);
      markPending(row, waiting, hop);
      rows.push(row);
    }
    const last = targetHop(s, hosts) ?? finalHop(st, hosts);
    const header = hopRow(s, last, byHop.get(last), st, last - 1, editable, d, details.get(last) ?? null, deepest);
    markPending(header, waiting, last);
    header.UniqueID = rowId(s.id, 0);
    header.HopNum = 0;
    header.DNSName = s.targetName || byHop.get(last)?.dnsName || '';
    header.IP = s.targetIp;
    const maxLatency = Math.max(0, ...rows.map((r) => r.Maximum ?? 0));
    return {
      UniqueID: String(s.id),
      WarningSpeed: d.warn,
      BadSpeed: d.bad,
      GraphScale: d.scale > 0 ? d.scale : Math.max(10, maxLatency * 1.01),
      Rows: [header, ...rows],
      Details: {
        ConfigurationID: s.configurationId,
        SummaryName: '',
        HostCount: rows.length,
        HubSentinelID: s.sentinelId,
        TargetDescription: s.description || s.originalTarget,
        TargetIPAddress: s.targetIp,
        TargetDNSName: s.targetName,
        TargetHostID: rowId(s.id, last),
        IsRunning: s.state === SessionState.Active,
        IsNew: s.sampleCount === 0,
        TraceInterval: s.traceIntervalMs / 1000,
        FirstSample: iso(s.firstSample),
        LatestSample: iso(s.latestSample),
        Editable: editable,
        PacketType: packetTypeText(await engineSettingsOf(q, s.configurationId)),
      },
    };
  }, ConsoleRead);
}

/**
 * One row per target (its final hop), as the summary grid and an agent's target list show them.
 * A constant number of statements for any number of targets: the sessions, their hosts, the
 * display values, the watched flags and the final hops' details in one statement each, the
 * statistics of open sessions from the ingest's memory (the store only for what it lacks).
 * Per target, as before 2026-11-27, 100 targets took 6 to 15 s behind the ingest (docs/summary-screen.md).
 */
async function targetListRows(q: Queryable, sessionIds: number[], args: GraphRowsArgs, editable: boolean, source?: RowsSource) {
  const sessions = await findSessions(q, sessionIds);
  const ids = sessions.map((s) => s.id);
  const [hosts, shown, watched] = await Promise.all([hostsOf(q, ids), displays(q, sessions), watchedSessions(q, ids)]);
  const hostsBySession = new Map<number, HostRecord[]>();
  for (const h of hosts) {
    const list = hostsBySession.get(h.sessionId) ?? [];
    list.push(h);
    hostsBySession.set(h.sessionId, list);
  }
  const parts: { s: SessionRecord; range: { from: number; to: number }; hosts: HostRecord[]; st: RowStatsResult; last: number }[] = [];
  for (const s of sessions) {
    const req = args.requests.find((r) => parseRecordId(r.ID) === s.id) ?? args.requests[0];
    const range = rangeFor(s, req);
    const own = hostsBySession.get(s.id) ?? [];
    const st = await statsFor(q, s, range.from, range.to, Math.max(0, ...own.map((h) => h.hop)), source);
    parts.push({ s, range, hosts: own, st, last: targetHop(s, own) ?? finalHop(st, own) });
  }
  const details = await hopDetailsOfMany(
    q,
    parts.map((x) => ({ sessionId: x.s.id, from: x.range.from, to: x.range.to, hop: x.last })),
    openHopHostsOf(source),
  );
  const rows: TargetRow[] = [];
  let warn = 100;
  let bad = 250;
  for (const { s, hosts: own, st, last } of parts) {
    const d = { ...shown.get(s.id)!, hasAlert: watched.has(s.id) };
    warn = d.warn;
    bad = d.bad;
    const row = hopRow(s, last, own.find((h) => h.hop === last), st, last - 1, editable, d, details.get(s.id)?.get(last) ?? null, routeLength(s.targetIp, own, st.hopCount));
    row.DNSName = s.targetName || row.DNSName;
    row.IP = s.targetIp;
    row.Columns.DNSName = row.DNSName;
    row.Columns.IPAddress = s.targetIp;
    rows.push(row);
  }
  const maxLatency = Math.max(0, ...rows.map((r) => r.Maximum ?? 0));
  return { WarningSpeed: warn, BadSpeed: bad, GraphScale: Math.max(10, maxLatency * 1.01), Rows: rows, Details: null };
}

async function summaryRows(store: Store, p: Principal, args: GraphRowsArgs, source?: RowsSource): Promise<GraphRowsResult> {
  // 0 is a LiveShare visitor's pseudo-summary of an agent's targets.
  const summaryId = parseIdText(args.uniqueID, 0, MaxRecordId);
  if (summaryId === undefined) throw badRequest(`"${args.uniqueID}" is not a summary id.`);
  if (summaryOutsideLiveShare(p, summaryId)) throw notFound(`Summary ${summaryId} not found`);
  const editable = p.claims.includes(Claim.TargetManagement);
  return store.read(async (q) => {
    // A LiveShare visitor's pseudo-summary (id 0) of an agent's targets: its link's targets.
    const pseudo = p.liveShare && summaryId === 0 ? [...p.liveShare.sessionIds].sort((a, b) => a - b).map((id) => ({ id })) : undefined;
    const summary = pseudo
      ? { isAll: false }
      : await q.one<{ isAll: boolean }>('SELECT is_all_targets AS "isAll" FROM summaries WHERE id = $1 AND account_id = $2', [summaryId, p.accountId]);
    if (!summary) throw notFound(`Summary ${summaryId} not found`);
    const sessions =
      pseudo ??
      (summary.isAll
        ? await q.all<{ id: number }>('SELECT id FROM sessions WHERE account_id = $1 AND state IN (0, 1) ORDER BY id', [p.accountId])
        : await q.all<{ id: number }>(
            `SELECT s.id FROM summary_members m JOIN sessions s ON s.id = m.session_id
             WHERE m.summary_id = $1 AND s.state IN (0, 1) ORDER BY s.id`,
            [summaryId],
          ));
    return { UniqueID: String(summaryId), ...(await targetListRows(q, sessions.map((r) => r.id), args, editable, source)) };
  }, ConsoleRead);
}

/**
 * The 'Agent' list (spec 3 "Target list kinds"): the open targets of one agent of the caller's
 * account (the Local Machine is -1), one row each, as a summary grid shows them.
 */
async function agentRows(store: Store, p: Principal, args: GraphRowsArgs, source?: RowsSource): Promise<GraphRowsResult> {
  const agentId = parseInt32Id(args.uniqueID);
  if (agentId === undefined) throw badRequest(`"${args.uniqueID}" is not an agent id.`);
  // A LiveShare visitor sees an agent's targets only as its link's pseudo-summary (summaryRows).
  if (p.liveShare) throw notFound(`Agent ${agentId} not found.`);
  const editable = p.claims.includes(Claim.TargetManagement);
  return store.read(async (q) => {
    if (agentId !== LocalMachineAgentId) {
      const a = await q.one<{ id: number }>('SELECT id FROM agents WHERE id = $1 AND account_id = $2', [agentId, p.accountId]);
      if (!a) throw notFound(`Agent ${agentId} not found.`);
    }
    const sessions = await q.all<{ id: number }>('SELECT id FROM sessions WHERE account_id = $1 AND sentinel_id = $2 AND state IN (0, 1) ORDER BY id', [
      p.accountId,
      agentId,
    ]);
    return { UniqueID: String(agentId), ...(await targetListRows(q, sessions.map((r) => r.id), args, editable, source)) };
  }, ConsoleRead);
}

/** With `source` (the ingest pipeline), recent data of open sessions is read from memory. */
export async function traceGraphRows(
  store: Store,
  p: Principal,
  args: GraphRowsArgs,
  source?: RowsSource,
  waitingHops?: WaitingHops,
): Promise<GraphRowsResult> {
  if (args.listType === 'Target') return targetRows(store, p, args, source, waitingHops);
  if (args.listType === 'Summary') return summaryRows(store, p, args, source);
  if (args.listType === 'Agent') return agentRows(store, p, args, source);
  // A LiveShare visitor's list is its link's summary (or the pseudo-summary 0 of an agent's targets).
  if (p.liveShare) return summaryRows(store, p, { ...args, uniqueID: String(p.liveShare.summaryId) }, source);
  throw badRequest('The LiveShare list is for LiveShare visitors: sign in through a LiveShare link, or ask for a Summary list.');
}
