// A per-key sliding window: at most `limit` takes per `windowMs`. It guards a call (feedback,
// support tickets, activation mails) against a loop or a script, not a botnet. Its counts are
// this process's, or every replica's through Redis (server/account/window-counter.ts).
import { MemoryWindowCounter, type WindowCounter } from '../account/window-counter.js';

export class SlidingWindowLimit {
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly counts: WindowCounter = new MemoryWindowCounter(),
  ) {}

  /** Takes one slot for `key` at `now`: 0 when allowed, else ms until a slot frees up. */
  take(key: string, now: number): Promise<number> {
    return this.counts.take(key, now, this.limit, this.windowMs);
  }
}
