// Counts, per session, hop and answering address, the answers of each minute, and hands out
// the rows of closed minutes for the store (hop_hosts: one row per address and minute, a few
// bytes beside the 60 samples of a minute at 1 s). The details text goes with a row only when
// it differs from the last one stored for that address, or that one is an hour old
// (DetailsRestatedMs), so details are stored on change and hourly.
import { isSpecialLatency } from '../contract/latency.js';
import { detailsText, type HopSeen } from './details-json.js';

export const HopHostMinuteMs = 60_000;
/**
 * Unchanged details are stored again on the first row this long after the address's last text,
 * so the latest text of any row is at most this far before it: a read of a range looks for the
 * texts of its addresses from this long before the range on (repository.ts), not through all
 * of the table's history, which a live console read scanned in full every second (bench:soak,
 * issue 45 item 7). It costs one text an address an hour beside 60 rows without.
 */
export const DetailsRestatedMs = 60 * HopHostMinuteMs;

export interface HopHostRow {
  sessionId: number;
  hop: number;
  address: string;
  /** Start of the minute (ms since epoch). */
  minute: number;
  answers: number;
  /** Null when the details are those of the address's previous row. */
  details: string | null;
  /** Set on the open minute's rows (held()): the store has none of that minute's answers counted here. */
  open?: boolean;
}

interface Counter {
  hop: number;
  address: string;
  answers: number;
  /** The details of the address's latest answer in the minute. */
  details: string;
}

interface SessionTally {
  minute: number;
  /** By hop, then by address (no key text to build per answer: see() runs for every hop of every round). */
  counters: Map<number, Map<string, Counter>>;
  /** The details text last handed out per `${hop} ${address}` (what the store has), and its minute. */
  stored: Map<string, { details: string; minute: number }>;
}

/** Only answers count: a final-hop-only round names hops it did not probe. */
const isAnswer = (h: HopSeen) => !!h.address && !isSpecialLatency(h.rtt);

export class HopHostTally {
  private readonly sessions = new Map<number, SessionTally>();
  private closed: HopHostRow[] = [];
  /** The rows of the last take() until the store has them (committed()), with full details, for reads. */
  private taken: HopHostRow[] = [];

  /** Counts a round's answering hops (timeouts and hops not probed have no address). */
  see(sessionId: number, time: number, hops: readonly HopSeen[]): void {
    const first = hops.findIndex(isAnswer);
    if (first < 0) return; // a marker round or all timeouts: nothing to remember
    const minute = Math.floor(time / HopHostMinuteMs) * HopHostMinuteMs;
    let s = this.sessions.get(sessionId);
    if (!s) this.sessions.set(sessionId, (s = { minute, counters: new Map(), stored: new Map() }));
    // Rounds come in time order; a late one (clock step) counts in the open minute.
    if (minute > s.minute) {
      this.close(sessionId, s);
      s.minute = minute;
    }
    for (let i = first; i < hops.length; i++) {
      const h = hops[i];
      if (!isAnswer(h)) continue;
      const details = detailsText(h);
      let byAddress = s.counters.get(h.ttl);
      if (!byAddress) s.counters.set(h.ttl, (byAddress = new Map()));
      const c = byAddress.get(h.address!);
      if (c) {
        c.answers++;
        c.details = details;
      } else {
        byAddress.set(h.address!, { hop: h.ttl, address: h.address!, answers: 1, details });
      }
    }
  }

  /** The rows of closed minutes, and every open one of `finishing` sessions (then forgotten). */
  take(finishing: Iterable<number> = []): HopHostRow[] {
    const done = [...finishing].filter((id) => this.sessions.has(id));
    for (const id of done) this.close(id, this.sessions.get(id)!);
    const rows = this.closed;
    this.closed = [];
    this.taken = rows.map((r) => this.withDetails(r));
    for (const id of done) this.sessions.delete(id);
    return rows;
  }

  /** The store has the rows of the last take(): reads find them there. */
  committed(): void {
    this.taken = [];
  }

  /** The sessions with an open minute. */
  sessionIds(): number[] {
    return [...this.sessions.keys()];
  }

  /** Rows taken but not stored (the flush failed): they go with the next take(). */
  giveBack(rows: HopHostRow[]): void {
    this.taken = [];
    this.closed = rows.concat(this.closed);
  }

  /**
   * What the store was handed last per `${hop} ${address}` of a session (its details text and
   * minute), for reads of the latest details without the store (repository.ts KnownDetails);
   * undefined for a session not counted since the server started.
   */
  latestDetails(sessionId: number): ReadonlyMap<string, { details: string; minute: number }> | undefined {
    return this.sessions.get(sessionId)?.stored;
  }

  /** The open minute of a session, as rows with their full details (for reads). */
  open(sessionId: number): HopHostRow[] {
    const s = this.sessions.get(sessionId);
    if (!s) return [];
    return [...s.counters.values()].flatMap((byAddress) =>
      [...byAddress.values()].map((c) => ({ sessionId, hop: c.hop, address: c.address, minute: s.minute, answers: c.answers, details: c.details, open: true })),
    );
  }

  /**
   * Every row of a session the store may not have yet, oldest minute first, for reads: those
   * being stored (the last take()), the closed minutes waiting for a flush, the open minute.
   * A read of the open minute alone missed the minute just closed until its flush committed:
   * a hop that had not answered yet in the new minute had no details at all (CI,
   * test/api/hop-details.test.ts).
   */
  held(sessionId: number): HopHostRow[] {
    const waiting = this.closed.filter((r) => r.sessionId === sessionId).map((r) => this.withDetails(r));
    return this.taken.filter((r) => r.sessionId === sessionId).concat(waiting, this.open(sessionId));
  }

  /** A closed row with its details text (null in the row: the one last stored for its address). */
  private withDetails(r: HopHostRow): HopHostRow {
    return r.details !== null ? r : { ...r, details: this.sessions.get(r.sessionId)?.stored.get(`${r.hop} ${r.address}`)?.details ?? null };
  }

  private close(sessionId: number, s: SessionTally): void {
    for (const c of [...s.counters.values()].flatMap((byAddress) => [...byAddress.values()])) {
      const key = `${c.hop} ${c.address}`;
      const last = s.stored.get(key);
      const write = last === undefined || last.details !== c.details || s.minute - last.minute >= DetailsRestatedMs;
      if (write) s.stored.set(key, { details: c.details, minute: s.minute });
      this.closed.push({ sessionId, hop: c.hop, address: c.address, minute: s.minute, answers: c.answers, details: write ? c.details : null });
    }
    s.counters.clear();
  }
}
