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

/**
 * Every address that answered at a hop of each session in its [from, to) (whole minutes: the
 * minutes the range touches), with its answers and its latest details up to `to`; with `hop`,
 * that hop only. One statement for any number of sessions: a summary's rows need the final hop
 * of every target (docs/summary-screen.md). The sessions must be distinct.
 *
 * Both scans are bounded by constant minutes, so DuckDB skips the row groups outside them (the
 * table is appended minute by minute): a target window's live read is about one hour and ten
 * minutes of rows however long the table's history. The latest details are looked for from
 * DetailsRestatedMs before the range (the ingest stores an address's text at least that often,
 * tally.ts); an address whose text is older (rows stored before that rule, an import) is looked
 * up through the whole history, by a second statement for its sessions only.
 */
export async function hopHostsOfMany(q: Queryable, queries: HopHostsQuery[]): Promise<Map<number, StoredHopHost[]>> {
  const out = new Map<number, StoredHopHost[]>();
  if (!queries.length) return out;
  const lo = queries.map((x) => Math.floor(x.from / HopHostMinuteMs) * HopHostMinuteMs);
  const hi = queries.map((x) => x.to);
  const rows = await q.all<StoredHopHost & { sessionId: number }>(
    `WITH r AS (
       SELECT unnest($1::INTEGER[]) AS sid, unnest($2::DOUBLE[]) AS lo, unnest($3::DOUBLE[]) AS hi, unnest($4::INTEGER[]) AS only_hop),
     counted AS (
       SELECT h.session_id, h.hop, h.address, sum(h.answers)::INTEGER AS answers FROM hop_hosts h JOIN r ON h.session_id = r.sid
       WHERE h.minute >= $5::DOUBLE AND h.minute < $6::DOUBLE
         AND h.minute >= r.lo AND h.minute < r.hi AND (r.only_hop = 0 OR h.hop = r.only_hop) GROUP BY h.session_id, h.hop, h.address),
     latest AS (
       SELECT h.session_id, h.hop, h.address, arg_max(h.details, h.minute) AS details FROM hop_hosts h JOIN r ON h.session_id = r.sid
       WHERE h.minute >= $5::DOUBLE - $7::DOUBLE AND h.minute < $6::DOUBLE
         AND h.minute >= r.lo - $7::DOUBLE AND h.minute < r.hi AND h.details IS NOT NULL AND (r.only_hop = 0 OR h.hop = r.only_hop)
       GROUP BY h.session_id, h.hop, h.address)
     SELECT c.session_id AS "sessionId", c.hop, c.address, c.answers, l.details FROM counted c LEFT JOIN latest l USING (session_id, hop, address)
     ORDER BY c.session_id, c.hop, c.answers DESC, c.address`,
    [listParam(queries.map((x) => x.sessionId)), listParam(lo), listParam(hi), listParam(queries.map((x) => x.hop ?? 0)), Math.min(...lo), Math.max(...hi), DetailsRestatedMs],
  );
  const older = new Set(rows.filter((r) => r.details === null).map((r) => Number(r.sessionId)));
  const olderDetails = older.size ? await latestDetailsOfMany(q, queries.filter((x) => older.has(x.sessionId))) : new Map<string, string>();
  for (const { sessionId, ...row } of rows) {
    const id = Number(sessionId);
    const held = out.get(id) ?? [];
    const hop = Number(row.hop);
    held.push({ ...row, hop, details: row.details ?? olderDetails.get(`${id} ${hop} ${row.address}`) ?? null });
    out.set(id, held);
  }
  return out;
}

/** The latest details up to each query's `to` through the whole history, by `${sessionId} ${hop} ${address}`. */
async function latestDetailsOfMany(q: Queryable, queries: HopHostsQuery[]): Promise<Map<string, string>> {
  const rows = await q.all<{ sessionId: number; hop: number; address: string; details: string }>(
    `WITH r AS (SELECT unnest($1::INTEGER[]) AS sid, unnest($2::DOUBLE[]) AS hi, unnest($3::INTEGER[]) AS only_hop)
     SELECT h.session_id AS "sessionId", h.hop, h.address, arg_max(h.details, h.minute) AS details FROM hop_hosts h JOIN r ON h.session_id = r.sid
     WHERE h.minute < r.hi AND h.details IS NOT NULL AND (r.only_hop = 0 OR h.hop = r.only_hop) GROUP BY h.session_id, h.hop, h.address`,
    [listParam(queries.map((x) => x.sessionId)), listParam(queries.map((x) => x.to)), listParam(queries.map((x) => x.hop ?? 0))],
  );
  return new Map(rows.map((r) => [`${Number(r.sessionId)} ${Number(r.hop)} ${r.address}`, r.details]));
}
