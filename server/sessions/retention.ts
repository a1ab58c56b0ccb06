// HOPWATCH_RETENTION_SESSIONS_DAYS: closed sessions older than N days are deleted once at
// start and then daily, by the leader when several replicas share PostgreSQL. Also at start:
// sessions a stop left half-imported are deleted.
import type { FastifyInstance } from 'fastify';
import { DayMs, deleteExpiredSessions, deleteLeftoverImports, type SessionDeps } from './service.js';

export function scheduleRetention(app: FastifyInstance, deps: SessionDeps): void {
  const days = app.config.retentionSessionsDays;
  let timer: NodeJS.Timeout | undefined;
  const sweep = async () => {
    // Several replicas: the leader sweeps (docs/scale.md "Once-only work").
    if (!days || !(await app.leadership.stillLeader())) return;
    try {
      const n = await deleteExpiredSessions(deps, days);
      if (n) app.log.info({ count: n, days }, 'retention deleted closed sessions');
    } catch (err) {
      app.log.error({ err }, 'retention sweep failed');
    }
  };
  app.addHook('onReady', async () => {
    const left = await deleteLeftoverImports(deps);
    if (left) app.log.info({ count: left }, 'deleted sessions of imports that never finished');
    await sweep();
    // unref: the timer never keeps a stopping process alive.
    if (days) timer = setInterval(() => void sweep(), DayMs).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
