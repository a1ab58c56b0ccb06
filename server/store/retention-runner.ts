// Runs expiry at start and then once a day (retention.ts), and the packing of closed days into
// hop order (sample-order.ts) after it and then every hour (a day is packed a few hours after
// it ends, not up to a day later), one run at a time, with a log line per run that did
// something. The days are read again before each expiry, so a changed setting applies the next
// day (or at the next start).
import type { Store } from './db.js';
import { expireOnce } from './retention.js';
import { retentionDays, type RetentionOverrides } from './retention-settings.js';
import { packSamples } from './sample-order.js';
import { pgPoolOf } from './sample-tables.js';
import { packClosed } from './postgres/samples-pack.js';

/** Whether this replica runs the once-only work now (server/cluster/leadership.ts); the embedded appliance always does. */
export interface OnceOnly {
  stillLeader(): Promise<boolean>;
  onChange(listener: (leader: boolean) => void): () => void;
}

const Always: OnceOnly = { stillLeader: async () => true, onChange: () => () => undefined };

const Daily = 86_400_000;
const Hourly = 3_600_000;
/** PostgreSQL packs closed hours into blocks this often (postgres/samples-pack.ts): a running appliance packs an hour at a time. */
export const PgPackEveryMs = 5 * 60_000;

export interface RetentionLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Starts the daily expiry and the hourly packing; the answer stops them and waits for a run in
 * progress. With several replicas only the leader runs them, asking the database before each
 * run; a replica that becomes the leader runs them at once (it does not know when the last
 * leader last did; expiry and packing find nothing to do when it was recent).
 */
export function startRetention(store: Store, env: RetentionOverrides, log: RetentionLog, now = () => Date.now(), leadership: OnceOnly = Always): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let lastExpiry = -Infinity;
  const run = () => {
    running = running.then(async () => {
      if (stopped || !(await leadership.stillLeader())) return;
      try {
        if (now() - lastExpiry >= Daily - Hourly / 2) {
          lastExpiry = now();
          const days = await retentionDays(store, env);
          const r = await expireOnce(store, now(), days);
          log.info({ ...days, ...r, longestMs: Math.round(r.longestMs * 10) / 10 }, 'retention: expired raw samples and 1-minute rollups older than their tiers');
        }
      } catch (err) {
        if (!stopped) log.error({ err }, 'retention: expiry failed (tried again tomorrow)');
      }
      if (pool) return pack();
      try {
        const p = await packSamples(store, { stopped: () => stopped });
        if (p.days) log.info({ ...p, longestMs: Math.round(p.longestMs * 10) / 10 }, 'samples: closed days rewritten in hop order');
      } catch (err) {
        if (!stopped) log.error({ err }, 'samples: packing closed days failed (tried again in an hour)');
      }
    });
  };
  // PostgreSQL: closed hours of samples and closed periods of rollup rows into blocks.
  const pool = pgPoolOf(store);
  const pack = async () => {
    if (stopped || !pool || !(await leadership.stillLeader())) return;
    try {
      const p = await packClosed(pool);
      const longestMs = Math.round(Math.max(p.samples.longestMs, p.rollups.longestMs) * 10) / 10;
      if (p.samples.rows || p.rollups.rows)
        log.info({ samples: p.samples.rows, rollupRows: p.rollups.rows, blocks: p.samples.blocks + p.rollups.blocks, transactions: p.samples.transactions + p.rollups.transactions, longestMs }, 'samples: closed periods packed into blocks');
    } catch (err) {
      if (!stopped) log.error({ err }, 'samples: packing into blocks failed (tried again in a few minutes)');
    }
  };
  run();
  const unfollow = leadership.onChange((leader) => {
    if (leader) run();
  });
  const packTimer = pool ? setInterval(() => (running = running.then(pack)), PgPackEveryMs) : undefined;
  packTimer?.unref();
  const timer = setInterval(run, Hourly);
  timer.unref();
  return async () => {
    stopped = true;
    unfollow();
    clearInterval(timer);
    if (packTimer) clearInterval(packTimer);
    await running;
  };
}
