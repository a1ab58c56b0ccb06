// Runs expiry at start and then once a day (retention.ts), one run at a time, with a log line
// per run. The days are read again before each run, so a changed setting applies the next day
// (or at the next start).
import type { Store } from './db.js';
import { expireOnce } from './retention.js';
import { retentionDays, type RetentionOverrides } from './retention-settings.js';

const Daily = 86_400_000;

export interface RetentionLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Starts the daily expiry; the answer stops it and waits for a run in progress. */
export function startRetention(store: Store, env: RetentionOverrides, log: RetentionLog, now = () => Date.now()): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        const days = await retentionDays(store, env);
        const r = await expireOnce(store, now(), days);
        log.info({ ...days, ...r, longestMs: Math.round(r.longestMs * 10) / 10 }, 'retention: expired raw samples and 1-minute rollups older than their tiers');
      } catch (err) {
        if (!stopped) log.error({ err }, 'retention: expiry failed (tried again tomorrow)');
      }
    });
  };
  run();
  const timer = setInterval(run, Daily);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
