// SQL of hop_hosts (migration 14): answers per session, hop, address and minute, with the
// details text when it changed.
import type { Connection, Queryable } from '../store/db.js';
import { appendRows } from '../store/append-columns.js';
import { DetailsRestatedMs, HopHostMinuteMs, type HopHostRow } from './tally.js';
import { listParam } from '../store/id-list.js';

/**
 * Appends closed minutes' rows inside the caller's transaction, through the table's appender:
 * a live server closes a row per hop and minute of every trace (30,000 a minute for 1,000
 * traces of 30 hops), and INSERT statements of 500 rows cost about 65 ms each to bind.
 */
export async function appendHopHosts(conn: Connection, rows: readonly HopHostRow[]): Promise<void> {
  await appendRows(
    conn,
    'hop_hosts',
    ['INTEGER', 'SMALLINT', 'VARCHAR', 'DOUBLE', 'INTEGER', 'VARCHAR'],
    rows.map((r) => [r.sessionId, r.hop, r.address, r.minute, r.answers, r.details]),
  );
}

export interface StoredHopHost {
  hop: number;
  address: string;
  answers: number;
  /** The latest details stored for the address up to the end of the range. */
  details: string | null;
}

/** One session's part of a batched read: its range and, with `hop` (not 0), that hop only. */
export interface HopHostsQuery {
  sessionId: number;
  from: number;
  to: number;
  hop?: number;
}

/** An address's latest stored details text and its minute, by `${hop} ${address}` (the ingest's memory, tally.ts). */
export type KnownDetails = (sessionId: number) => ReadonlyMap<string, { details: string; minute: number }> | undefined;

/**
 * Every address that answered at a hop of each session in its [from, to) (whole minutes: the
 * minutes the range touches), with its answers and its latest details up to `to`; with `hop`,
 * that hop only. A constant number of statements for any number of sessions: a summary's rows
 * need the final hop of every target (docs/summary-screen.md). The sessions must be distinct.
 *
 * What a live console reads every second (issue 45 item 7), so no statement scans the table's
 * history: the answers are read from the range's minutes only (constant bounds: DuckDB skips
 * the row groups outside them, the table being appended minute by minute). The latest details
 * come from `known` (the ingest's memory of what it stored, for the running sessions) when it
 * has an address's text from before `to`; else from DetailsRestatedMs before the range on (the
 * ingest stores an address's text at least that often, tally.ts); an address whose text is
 * older still (rows stored before that rule, an import) through the whole history, for its
 * sessions only.
 */
export async function hopHostsOfMany(q: Queryable, queries: HopHostsQuery[], known?: KnownDetails): Promise<Map<number, StoredHopHost[]>> {
  const out = new Map<number, StoredHopHost[]>();
  if (!queries.length) return out;
  const lo = queries.map((x) => Math.floor(x.from / HopHostMinuteMs) * HopHostMinuteMs);
  const rows = await q.all<{ sessionId: number; hop: number; address: string; answers: number }>(
    `WITH r AS (
       SELECT unnest($1::INTEGER[]) AS sid, unnest($2::DOUBLE[]) AS lo, unnest($3::DOUBLE[]) AS hi, unnest($4::INTEGER[]) AS only_hop)
     SELECT h.session_id AS "sessionId", h.hop, h.address, sum(h.answers)::INTEGER AS answers FROM hop_hosts h JOIN r ON h.session_id = r.sid
     WHERE h.minute >= $5::DOUBLE AND h.minute < $6::DOUBLE
       AND h.minute >= r.lo AND h.minute < r.hi AND (r.only_hop = 0 OR h.hop = r.only_hop) GROUP BY h.session_id, h.hop, h.address
     ORDER BY h.session_id, h.hop, answers DESC, h.address`,
    [listParam(queries.map((x) => x.sessionId)), listParam(lo), listParam(queries.map((x) => x.to)), listParam(queries.map((x) => x.hop ?? 0)), Math.min(...lo), Math.max(...queries.map((x) => x.to))],
  );
  const found = rows.map((r) => ({ sessionId: Number(r.sessionId), hop: Number(r.hop), address: r.address, answers: Number(r.answers), details: null as string | null }));
  const byId = new Map(queries.map((x) => [x.sessionId, x]));
  for (const r of found) {
    const k = known?.(r.sessionId)?.get(`${r.hop} ${r.address}`);
    if (k && k.minute < byId.get(r.sessionId)!.to) r.details = k.details;
  }
  // From the store: within DetailsRestatedMs before the range, then through the whole history.
  for (const since of [DetailsRestatedMs, Infinity]) {
    const lacking = new Set(found.filter((r) => r.details === null).map((r) => r.sessionId));
    if (!lacking.size) break;
    const stored = await latestDetailsOfMany(q, queries.filter((x) => lacking.has(x.sessionId)), since);
    for (const r of found) r.details ??= stored.get(`${r.sessionId} ${r.hop} ${r.address}`) ?? null;
  }
  for (const { sessionId, ...row } of found) {
    const held = out.get(sessionId) ?? [];
    held.push(row);
    out.set(sessionId, held);
  }
  return out;
}

/**
 * The latest details up to each query's `to`, from `since` ms before its first minute on
 * (Infinity: the whole history), by `${sessionId} ${hop} ${address}`.
 */
async function latestDetailsOfMany(q: Queryable, queries: HopHostsQuery[], since: number): Promise<Map<string, string>> {
  const lo = queries.map((x) => (Number.isFinite(since) ? Math.floor(x.from / HopHostMinuteMs) * HopHostMinuteMs - since : -1e15));
  const rows = await q.all<{ sessionId: number; hop: number; address: string; details: string }>(
    `WITH r AS (SELECT unnest($1::INTEGER[]) AS sid, unnest($2::DOUBLE[]) AS lo, unnest($3::DOUBLE[]) AS hi, unnest($4::INTEGER[]) AS only_hop)
     SELECT h.session_id AS "sessionId", h.hop, h.address, arg_max(h.details, h.minute) AS details FROM hop_hosts h JOIN r ON h.session_id = r.sid
     WHERE h.minute >= $5::DOUBLE AND h.minute < $6::DOUBLE
       AND h.minute >= r.lo AND h.minute < r.hi AND h.details IS NOT NULL AND (r.only_hop = 0 OR h.hop = r.only_hop)
     GROUP BY h.session_id, h.hop, h.address`,
    [
      listParam(queries.map((x) => x.sessionId)),
      listParam(lo),
      listParam(queries.map((x) => x.to)),
      listParam(queries.map((x) => x.hop ?? 0)),
      Math.min(...lo),
      Math.max(...queries.map((x) => x.to)),
    ],
  );
  return new Map(rows.map((r) => [`${Number(r.sessionId)} ${Number(r.hop)} ${r.address}`, r.details]));
}
