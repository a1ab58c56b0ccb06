// The staff area (spec 1 section 2, issue 23): Session Audit, Users and Events, Feedback,
// Lookup and Ping Server Management, each a plugin of its own under server/staff/. The
// accounts page is server/accounts/'s. Also keeps the area's records bounded (hourly).
import type { FastifyInstance } from 'fastify';
import sessionAuditPlugin from './sessionaudit/plugin.js';
import userAndEventsPlugin from './userandevents/plugin.js';
import feedbackPlugin from './feedback/plugin.js';
import lookupPlugin from './lookup/plugin.js';
import pingServersPlugin from './pingservers/plugin.js';
import { purgeUserEvents } from './userandevents/repository.js';
import { purgeOldSignIns } from './sessionaudit/repository.js';

const PurgeEveryMs = 3_600_000;

export default async function staffPlugin(app: FastifyInstance, opts: { version: string }) {
  await app.register(sessionAuditPlugin);
  await app.register(userAndEventsPlugin);
  await app.register(feedbackPlugin);
  await app.register(lookupPlugin);
  await app.register(pingServersPlugin, { version: opts.version });

  // Several replicas: the leader purges (docs/scale.md "Once-only work").
  const purge = async () =>
    (await app.leadership.stillLeader()) &&
    app.store
      .exclusive(async (q) => {
        await purgeUserEvents(q);
        await purgeOldSignIns(q);
      }, { background: true })
      .catch((err: unknown) => app.log.warn({ err }, 'could not purge old staff records'));
  const timer = setInterval(() => void purge(), PurgeEveryMs);
  timer.unref();
  app.addHook('onReady', async () => void purge());
  app.addHook('onClose', async () => clearInterval(timer));
}
