// A small cache of what reads of closed rollup rows returned, per store. Rows before a
// session's rollup marks never change once written (late samples go to the raw samples
// only, docs/store.md "Queries"); they only go away: a deleted session, or 1-minute rows
// past their retention. So an old range's rows read once can answer the next read of the
// same range without DuckDB: the graphs of several hops of one target over the same range,
// a reload, a pan back. Measured (docs/benchmarks.md, issue 25 item 4): a day of 1-minute
// rows of 30 hops costs about 10 ms of DuckDB and copies into JS, and the ~4 MB of buffers
// the bindings allocate for it set off a mark-compact GC every few calls; a cached read costs
// neither. Least recently used entries go first once the bytes exceed the budget.

/** What the cache may hold: a day of 1-minute rows of 30 hops is about 4 MB. */
export const ClosedReadBytes = 24 * 1024 * 1024;

interface Entry {
  sessionId: number;
  value: unknown;
  bytes: number;
}

/** What was forgotten: some sessions' entries, or all. */
export type ClosedReadsChange = { forget: number[] } | { clear: true };

export class ClosedReads {
  private readonly entries = new Map<string, Entry>();
  /** Told of every forget and clear made here (other replicas forget the same: server/cluster/event-relay.ts). */
  private readonly watchers = new Set<(change: ClosedReadsChange) => void>();
  private bytes = 0;
  /**
   * Moves with every invalidation: a read that started before one may have seen rows that are
   * gone now, so what it returns is not kept (see set).
   */
  generation = 0;

  constructor(readonly maxBytes = ClosedReadBytes) {}

  get<T>(sessionId: number, key: string): T | undefined {
    const k = `${sessionId}:${key}`;
    const e = this.entries.get(k);
    if (!e) return undefined;
    // Most recently used last (a Map keeps insertion order).
    this.entries.delete(k);
    this.entries.set(k, e);
    return e.value as T;
  }

  /**
   * Keeps a read's value. `generation`: the cache's generation when the read started; a
   * value read across an invalidation is dropped. Values over half the budget are not kept.
   */
  set(sessionId: number, key: string, value: unknown, bytes: number, generation: number): void {
    if (generation !== this.generation || bytes > this.maxBytes / 2) return;
    const k = `${sessionId}:${key}`;
    this.drop(k);
    this.entries.set(k, { sessionId, value, bytes });
    this.bytes += bytes;
    for (const [old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(old);
    }
  }

  /** Forgets the sessions' entries (their rows were deleted). */
  forget(sessionIds: Iterable<number>): void {
    const ids = [...sessionIds];
    this.applyPeer({ forget: ids });
    for (const w of this.watchers) w({ forget: ids });
  }

  /** Forgets everything (rows of many sessions were deleted: retention). */
  clear(): void {
    this.applyPeer({ clear: true });
    for (const w of this.watchers) w({ clear: true });
  }

  /** Forgets what another replica forgot (not told to the watchers again). */
  applyPeer(change: ClosedReadsChange): void {
    this.generation++;
    if ('clear' in change) {
      this.entries.clear();
      this.bytes = 0;
      return;
    }
    const ids = new Set(change.forget);
    for (const [k, e] of this.entries) if (ids.has(e.sessionId)) this.drop(k);
  }

  watch(fn: (change: ClosedReadsChange) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  private drop(k: string): void {
    const e = this.entries.get(k);
    if (!e) return;
    this.entries.delete(k);
    this.bytes -= e.bytes;
  }
}

// Per store: tests open several in one process.
const caches = new WeakMap<object, ClosedReads>();

/** The store's cache of closed rollup reads. */
export function closedReads(store: object): ClosedReads {
  let c = caches.get(store);
  if (!c) caches.set(store, (c = new ClosedReads()));
  return c;
}
