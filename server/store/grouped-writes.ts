// Small writes gathered for a short time and written together, one statement for many rows in
// one slot of the store's single write lane: 200 agents connecting at once wrote 200 hellos,
// 1,000 resolved target addresses and a batch number per agent and second one UPDATE each,
// and the ingest commits waited behind them (bench:agents). The newest value per key wins.
import type { Queryable, Store } from './db.js';

export class GroupedWrites<V> {
  private pending = new Map<number, V>();
  private waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly gatherMs: number,
    private readonly write: (q: Queryable, rows: [number, V][]) => Promise<void>,
    /** Reads need not wait for these writes (Store.exclusive's background). */
    private readonly background = false,
  ) {}

  /** Writes `value` for `key` with the next group; resolves once that group is committed. */
  set(key: number, value: V): Promise<void> {
    this.pending.set(key, value);
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.gatherMs).unref();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Writes what waits now (at close). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size) return;
    const rows = [...this.pending];
    const waiters = this.waiters;
    this.pending = new Map();
    this.waiters = [];
    try {
      await this.store.exclusive((q) => this.write(q, rows), { background: this.background });
      for (const w of waiters) w.resolve();
    } catch (err) {
      for (const w of waiters) w.reject(err);
      throw err;
    }
  }
}
