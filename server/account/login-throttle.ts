// Failed sign-ins are limited per user name and address, and per address overall, so a
// password cannot be guessed at speed. The counts live where the WindowCounter keeps them:
// this process's memory (a restart forgets, fine for one appliance), or Redis with several
// replicas (a limit counts the attempts made on all of them).
import { MemoryWindowCounter, type WindowCounter } from './window-counter.js';

export interface ThrottleLimits {
  perUserAndAddress: number;
  perAddress: number;
  windowMs: number;
}

export const DefaultThrottleLimits: ThrottleLimits = { perUserAndAddress: 5, perAddress: 20, windowMs: 15 * 60_000 };

export class LoginThrottle {
  constructor(
    private readonly limits: ThrottleLimits = DefaultThrottleLimits,
    private readonly now: () => number = Date.now,
    private readonly counts: WindowCounter = new MemoryWindowCounter(),
  ) {}

  private keys(username: string, address: string): [string, number][] {
    return [
      [`u:${username.toLowerCase()}|${address}`, this.limits.perUserAndAddress],
      [`a:${address}`, this.limits.perAddress],
    ];
  }

  /** Seconds to wait before another attempt is allowed, or 0. */
  async retryAfter(username: string, address: string): Promise<number> {
    const now = this.now();
    let wait = 0;
    for (const [key, limit] of this.keys(username, address)) {
      const list = await this.counts.since(key, now - this.limits.windowMs);
      if (list.length >= limit) {
        const freeAt = list[list.length - limit] + this.limits.windowMs;
        wait = Math.max(wait, Math.ceil((freeAt - now) / 1000));
      }
    }
    return wait;
  }

  async recordFailure(username: string, address: string): Promise<void> {
    const t = this.now();
    for (const [key] of this.keys(username, address)) await this.counts.add(key, t, this.limits.windowMs);
  }

  async recordSuccess(username: string, address: string): Promise<void> {
    await this.counts.clear(this.keys(username, address)[0][0]);
  }
}
