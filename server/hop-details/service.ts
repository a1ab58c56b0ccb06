// HopDetails of a target's rows: the stored minutes of hop_hosts and the open minute that
// ingest still counts in memory, merged per hop.
import type { HopDetails, HopHostDetails } from '../contract/hop-details.js';
import type { Queryable } from '../store/db.js';
import { detailsFromText } from './details-json.js';
import { hopHostsOfMany, type HopHostsQuery, type KnownDetails, type StoredHopHost } from './repository.js';
import { HopHostMinuteMs, type HopHostRow } from './tally.js';

/** Where the minutes not stored yet come from (the ingest pipeline). */
export interface OpenHopHosts {
  /** A session's rows the store may not have yet, oldest minute first (tally.ts held()). */
  openHopHosts(sessionId: number): HopHostRow[];
  /** The latest details the ingest stored per address of a running session (repository.ts KnownDetails). */
  latestHopDetails?: KnownDetails;
}

/** HopDetails per hop of a session over [from, to). */
export async function hopDetailsOf(q: Queryable, sessionId: number, from: number, to: number, open?: OpenHopHosts): Promise<Map<number, HopDetails>> {
  return (await hopDetailsOfMany(q, [{ sessionId, from, to }], open)).get(sessionId)!;
}

/**
 * HopDetails per hop of many sessions (each with its range, and with `hop` that hop only),
 * the stored minutes in one statement: per session, what hopDetailsOf answers (for `hop`).
 */
export async function hopDetailsOfMany(q: Queryable, queries: HopHostsQuery[], open?: OpenHopHosts): Promise<Map<number, Map<number, HopDetails>>> {
  // The rows in memory are taken before the store is read, and the store is read only before
  // the first closed minute among them: a flush that commits some of them meanwhile (its rows
  // stay in memory until then) counts them once. A session's closed minutes reach the store in
  // order, each whole in one flush, so the store has every minute before that one and memory
  // every one from it. The open minute is never stored from memory while it is open: the
  // store's rows of it are answers from before a restart within that minute, counted beside
  // memory's. (Once that minute closes, its part from before the restart is left out of reads
  // until the flush that stores the rest of it.)
  const held = new Map(queries.map((x) => [x.sessionId, open?.openHopHosts(x.sessionId) ?? []]));
  const storedQueries = queries.map((x) => {
    const closed = held.get(x.sessionId)!.filter((r) => !r.open);
    return closed.length ? { ...x, to: Math.min(x.to, Math.min(...closed.map((r) => r.minute))) } : x;
  });
  const stored = await hopHostsOfMany(q, storedQueries, open?.latestHopDetails);
  const out = new Map<number, Map<number, HopDetails>>();
  for (const x of queries) {
    const first = Math.floor(x.from / HopHostMinuteMs) * HopHostMinuteMs;
    const live = held.get(x.sessionId)!.filter((r) => r.minute >= first && r.minute < x.to && (!x.hop || r.hop === x.hop));
    out.set(x.sessionId, mergeHopHosts(stored.get(x.sessionId) ?? [], live));
  }
  return out;
}

/** Pure: stored rows plus the open minute's rows, as HopDetails per hop (most answers first). */
export function mergeHopHosts(stored: StoredHopHost[], live: HopHostRow[]): Map<number, HopDetails> {
  const byKey = new Map<string, StoredHopHost>();
  for (const s of stored) byKey.set(`${s.hop} ${s.address}`, { ...s });
  for (const r of live) {
    const key = `${r.hop} ${r.address}`;
    const s = byKey.get(key);
    if (s) {
      s.answers += r.answers;
      s.details = r.details ?? s.details;
    } else {
      byKey.set(key, { hop: r.hop, address: r.address, answers: r.answers, details: r.details });
    }
  }
  const byHop = new Map<number, StoredHopHost[]>();
  for (const s of byKey.values()) {
    const list = byHop.get(s.hop) ?? [];
    list.push(s);
    byHop.set(s.hop, list);
  }
  const out = new Map<number, HopDetails>();
  for (const [hop, list] of byHop) {
    const total = list.reduce((n, s) => n + s.answers, 0);
    const hosts: HopHostDetails[] = list
      .sort((a, b) => b.answers - a.answers || a.address.localeCompare(b.address))
      .map((s) => ({
        Address: s.address,
        Samples: s.answers,
        SharePercent: total > 0 ? Math.round((s.answers / total) * 1000) / 10 : 0,
        ...detailsFromText(s.details),
      }));
    out.set(hop, { Hosts: hosts });
  }
  return out;
}
