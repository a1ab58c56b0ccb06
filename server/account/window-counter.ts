// Where the limits keep their counts (sign-in throttles, LiveShare guessing, activation links,
// feedback, support tickets): events per key in a sliding window. In memory for one process;
// with HOPWATCH_REDIS_URL the same counts live in Redis (server/cluster/counters.ts), so a limit
// counts the attempts made on every replica and does not multiply by their number.

export interface WindowCounter {
  /** Counts one event for `key` at `t`; the key is forgotten `windowMs` after its last event. */
  add(key: string, t: number, windowMs: number): Promise<void>;
  /** The times of `key`'s events after `cutoff`, oldest first. */
  since(key: string, cutoff: number): Promise<number[]>;
  /** Forgets `key`'s events. */
  clear(key: string): Promise<void>;
  /**
   * Counts one event for `key` at `now` if fewer than `limit` were counted in the window before
   * it: 0 when counted, else the ms until the oldest leaves the window. One step (no race
   * between two callers).
   */
  take(key: string, now: number, limit: number, windowMs: number): Promise<number>;
}

/** Names the counters of one limit, so two limits never share a key. */
export type WindowCounters = (limitName: string) => WindowCounter;

/** This process's counts only. */
export class MemoryWindowCounter implements WindowCounter {
  readonly #times = new Map<string, number[]>();

  async add(key: string, t: number, windowMs: number): Promise<void> {
    const kept = (this.#times.get(key) ?? []).filter((x) => x > t - windowMs);
    kept.push(t);
    this.#times.set(key, kept);
    this.bound();
  }

  async since(key: string, cutoff: number): Promise<number[]> {
    const list = (this.#times.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.#times.set(key, list);
    else this.#times.delete(key);
    return list;
  }

  async clear(key: string): Promise<void> {
    this.#times.delete(key);
  }

  async take(key: string, now: number, limit: number, windowMs: number): Promise<number> {
    const kept = (this.#times.get(key) ?? []).filter((t) => t > now - windowMs);
    if (kept.length >= limit) {
      this.#times.set(key, kept);
      return kept[0] + windowMs - now;
    }
    kept.push(now);
    this.#times.set(key, kept);
    this.bound();
    return 0;
  }

  /** Many distinct keys (a script cycling names): forget all rather than grow without end. */
  private bound(): void {
    if (this.#times.size > 10_000) this.#times.clear();
  }
}

export const memoryWindowCounters: WindowCounters = () => new MemoryWindowCounter();
