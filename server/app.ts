// Assembles the Fastify app: shared hooks, then one plugin per area.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Config } from './config.js';
import type { Store } from './store/db.js';
import { DomainEventBus } from './events.js';
import { registerOpenApi } from './openapi/plugin.js';
import { createDataService } from './data/service.js';
import { installRequestLog } from './http/request-log.js';
import { answerFrameworkError, installErrorHandling } from './http/error-handler.js';
import { installJsonParsing } from './http/json-body.js';
import { requestSerializer } from './http/log-redaction.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { installCrossSiteRefusal } from './http/cross-site.js';
import { installAccessCheck } from './http/access.js';
import { installFiniteNumbers } from './http/finite-numbers.js';
import { principalFromCookie } from './account/authenticate.js';
import type { LoginThrottle } from './account/login-throttle.js';
import accountPlugin from './account/plugin.js';
import usersPlugin from './users/plugin.js';
import activationPlugin from './activation/plugin.js';
import impersonationPlugin, { installImpersonationAudit } from './impersonation/plugin.js';
import appConfigPlugin from './app-config/plugin.js';
import healthPlugin from './health/plugin.js';
import webPlugin from './web/plugin.js';
import targetsPlugin from './targets/plugin.js';
import dataPlugin from './data/plugin.js';
import pathViewPlugin from './path-view/plugin.js';
import mainHubPlugin from './mainhub/plugin.js';
import supportPlugin from './support/plugin.js';
import { startRetention } from './store/retention-runner.js';
import storagePlugin from './store/storage-plugin.js';
import { watchVolume } from './store/volume-watch.js';
import { volumeOf } from './store/disk-use.js';
import { dialectOf } from './store/dialect.js';
import { IngestPipeline } from './ingest/pipeline.js';
import { TraceRunner } from './targets/trace-runner.js';
import { startDynamicDns } from './targets/dynamic-dns.js';
import { sessionsInStates } from './targets/repository.js';
import { LocalMachineAgentId, SessionState } from './contract/sessions.js';
import { recordTraceTarget } from './kvp/trace-history.js';
import { engineFor, shutdownEngine, startTrace, useEngine, type StartTrace, type TraceEngine } from './trace-engine.js';
import summariesPlugin from './summaries/plugin.js';
import commentsPlugin from './comments/plugin.js';
import kvpPlugin from './kvp/plugin.js';
import configurationsPlugin from './configurations/plugin.js';
import sessionsPlugin from './sessions/plugin.js';
import dataFilesPlugin from './datafiles/plugin.js';
import agentsPlugin from './agents/plugin.js';
import accountsPlugin from './accounts/plugin.js';
import liveSharePlugin from './liveshare/plugin.js';
import { LiveShareVisitors } from './liveshare/visitors.js';
import settingsPlugin from './settings/plugin.js';
import insightsPlugin from './insights/plugin.js';
import mailPlugin from './mail/plugin.js';
import { mailer } from './mail/transport.js';
import alertsPlugin from './alerts/plugin.js';
import { AlertService } from './alerts/service.js';
import metricsPlugin from './metrics/plugin.js';
import staffPlugin from './staff/plugin.js';
import { installUserEventLog } from './staff/userandevents/recorder.js';
import sidekickPlugin from './sidekick/plugin.js';
import { pauseRefusedLocalMachineTraces } from './accounts/local-machine.js';
import { startOutageRecord } from './data/outage-record.js';
import { PgLeadership, startLeadership, type Leadership } from './cluster/leadership.js';
import { ClusterPresence } from './cluster/presence.js';
import { LocalMachineLeader } from './cluster/local-machine.js';
import { ClusterRedis } from './cluster/redis.js';
import { redisWindowCounters } from './cluster/counters.js';
import { relayClosedReads, relayEvents } from './cluster/event-relay.js';
import { closedReads } from './store/closed-reads.js';
import { memoryWindowCounters, type WindowCounters } from './account/window-counter.js';

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalog: readonly RouteOptions[];
    liveShareVisitors: LiveShareVisitors;
    /** Whether this replica runs the once-only work (server/cluster/leadership.ts). */
    leadership: Leadership;
    /** Redis, when this server is one replica of several (HOPWATCH_REDIS_URL; server/cluster/). */
    cluster: ClusterRedis | undefined;
    /** Where the limits count (this process, or every replica's through Redis). */
    counters: WindowCounters;
  }
}

export interface AppOptions {
  config: Config;
  store: Store;
  events?: DomainEventBus;
  version: string;
  isShuttingDown?: () => boolean;
  throttle?: LoginThrottle;
  logger?: boolean;
  /** Replaces the engine (tests without raw sockets). */
  startTrace?: StartTrace;
  /** The trace engine (default: what config.engine says, the raw sockets unless HOPWATCH_ENGINE=simulated). */
  engine?: TraceEngine;
  /** Replaces the leader lease (default: the advisory lock on HOPWATCH_DATABASE_URL's PostgreSQL, always the leader without it). */
  leadership?: Leadership;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  // With HOPWATCH_TLS_*, the same app over HTTPS (the WebSocket upgrades of /mainHub and
  // /agentLink ride on it as wss). Typed as the plain-HTTP instance: no route uses the raw server.
  const https = opts.config.tls ? { cert: readFileSync(opts.config.tls.certFile), key: readFileSync(opts.config.tls.keyFile) } : null;
  const app = Fastify({
    ...(https ? { https } : {}),
    logger:
      opts.logger === false
        ? false
        : {
            level: opts.config.logLevel,
            serializers: { req: requestSerializer },
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          },
    // Small JSON bodies everywhere; routes that take more say so.
    bodyLimit: 256 * 1024,
    // X-Forwarded-For/-Proto/-Host only from the configured proxies: anyone else could name
    // any address and walk past the sign-in limits (docs/security.md).
    trustProxy: opts.config.trustedProxies.length > 0 ? opts.config.trustedProxies : false,
    return503OnClosing: true,
    // Request lines are written by installRequestLog (debug, or info when slow).
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: answerFrameworkError,
    // Argument schemas shared with the hub take ids as text or number (type unions).
    ajv: { customOptions: { allowUnionTypes: true } },
  });
  // Every route as registered (method, url, schema, config): what the fuzz test and the
  // cross-site test walk, so a new call is covered without being listed anywhere.
  const routeCatalog: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routeCatalog.push(route);
  });
  app.decorate('routeCatalog', routeCatalog);
  app.decorate('config', opts.config);
  app.decorate('store', opts.store);
  app.decorate('events', opts.events ?? new DomainEventBus());
  // Connects in the background: a replica starts (and serves its own connections) while Redis is away.
  const cluster = opts.config.redisUrl ? new ClusterRedis(opts.config.redisUrl, app.log) : undefined;
  app.decorate('cluster', cluster);
  // Added first, so it runs last (Fastify runs onClose hooks in reverse order): everything that
  // publishes or counts through Redis (the agents' presence keys among them) closes before it.
  if (cluster) app.addHook('onClose', () => cluster.close());
  app.decorate('counters', cluster ? redisWindowCounters(cluster) : memoryWindowCounters);
  if (cluster) {
    // Caches of other replicas forget what a change here made stale, and the reverse.
    const unrelay = [relayEvents(cluster, app.events), relayClosedReads(cluster, closedReads(opts.store))];
    app.addHook('onClose', async () => unrelay.forEach((f) => f()));
  }
  app.decorateRequest('principal', undefined);
  app.decorateRequest('liveShareRefusal', undefined);
  installErrorHandling(app);
  installRequestLog(app, opts.config.slowRequestMs);
  installJsonParsing(app);
  installSecurityHeaders(app);
  installCrossSiteRefusal(app);
  await app.register(fastifyCookie);
  await registerOpenApi(app, opts.version);

  // Before validation: who may call is checked before what they sent (server/http/access.ts).
  // A browser without a user's session may be a LiveShare visitor (its liveshareid cookie).
  const visitors = new LiveShareVisitors(opts.store, opts.config, app.events, Date.now, app.counters('liveshare-wrong-links'));
  app.decorate('liveShareVisitors', visitors);
  app.addHook('onClose', async () => visitors.close());
  app.addHook('preValidation', async (request) => {
    if (!request.headers.cookie) return;
    // The hub signs its own requests in (through its session cache, server/mainhub/plugin.ts)
    // and nothing after this reads their principal: not read twice per negotiate and poll.
    if (request.routeOptions.config?.access === 'hubConnection') return;
    request.principal = await principalFromCookie(opts.store, request.headers.cookie);
    if (request.principal) return;
    const visitor = await visitors.fromCookie(request.headers.cookie, request.ip);
    if (visitor && 'principal' in visitor) request.principal = visitor.principal;
    else if (visitor) request.liveShareRefusal = visitor.refusal;
  });
  installAccessCheck(app);
  installImpersonationAudit(app);
  installUserEventLog(app);
  installFiniteNumbers(app);

  // The once-only work's lease (docs/scale.md "Once-only work"): before anything that does such work starts.
  const leadership = opts.leadership ?? (await startLeadership(opts.config.databaseUrl, app.log));
  app.decorate('leadership', leadership);
  await app.register(healthPlugin, { isShuttingDown: opts.isShuttingDown ?? (() => false), leadership });
  await app.register(appConfigPlugin, { version: opts.version });
  await app.register(accountPlugin, { throttle: opts.throttle });
  await app.register(usersPlugin);
  await app.register(activationPlugin);
  await app.register(impersonationPlugin);
  await app.register(supportPlugin);
  await app.register(summariesPlugin);
  await app.register(commentsPlugin);
  await app.register(kvpPlugin);
  await app.register(configurationsPlugin);
  await app.register(sessionsPlugin);
  await app.register(liveSharePlugin);

  // The built-in Local Machine agent and the ingest pipeline behind it.
  const ingest = new IngestPipeline(opts.store, app.events, {
    memorySessions: opts.config.memorySessions,
    onRollupWriteError: (err) => app.log.warn({ err }, 'writing the closed rollup rows or folding the sample tallies failed; kept, and tried again with the next flush'),
  });
  await ingest.init();
  const engine = opts.engine ?? engineFor(opts.config);
  useEngine(engine);
  if (engine.kind === 'simulated') app.log.warn('Traces run on the simulated network (HOPWATCH_ENGINE=simulated): nothing is sent, results come from its scenarios');
  const runner = new TraceRunner(opts.store, ingest, app.events, app.log, opts.startTrace ?? startTrace, opts.config.dataDir);
  app.decorate('traces', { ingest, runner });
  const stopRetention = startRetention(opts.store, opts.config, app.log, undefined, leadership);
  // Several replicas: the Local Machine's traces run on the leader (server/cluster/local-machine.ts).
  const localMachine = leadership.kind === 'postgres' ? new LocalMachineLeader({ store: opts.store, runner, ingest, leadership, log: app.log }) : undefined;
  // Dynamic DNS Auto: running targets named by a DNS name follow their name (docs/settings.md).
  const stopDynamicDns = startDynamicDns({ store: opts.store, runner, events: app.events, log: app.log }, opts.config.dynamicDnsSeconds * 1000);
  // DuckDB grows its file on the data volume: ingest pauses before it fills. On PostgreSQL the
  // data directory is only scratch (docs/scale.md "What a replica keeps") and the samples go to
  // the database's own disk, so a full one must not stop ingest.
  const stopVolumeWatch = dialectOf(opts.store) === 'postgres' ? () => undefined : watchVolume({ path: dirname(opts.store.path), volume: volumeOf, log: app.log, pause: (reason) => ingest.pauseFor(reason) });
  app.addHook('onClose', async () => {
    // Stop probing first, then flush what was measured, then release the sockets.
    stopVolumeWatch();
    await stopRetention();
    await stopDynamicDns();
    await localMachine?.close();
    await runner.close();
    await ingest.close();
    await shutdownEngine();
    // Given back last: the next leader starts the Local Machine's traces once they stopped here.
    await leadership.close();
  });
  const targetDeps = {
    store: opts.store,
    events: app.events,
    config: opts.config,
    runner,
    recordHistory: async (p: Parameters<typeof recordTraceTarget>[1], target: string) => {
      await recordTraceTarget(opts.store, p, target);
    },
  };
  // Outage periods (agents offline, the server down): the reasons the graphs give their gaps.
  // Before the agent link, so every agent's link event after this start is recorded.
  const stopOutageRecord = await startOutageRecord(
    opts.store,
    (listener) => {
      const on = (_accountId: number, agentId: number, online: boolean) => listener(agentId, online);
      app.events.on('AgentConnection', on);
      return () => app.events.off('AgentConnection', on);
    },
    app.log,
  );
  app.addHook('onClose', stopOutageRecord);
  // Remote agents: their calls, and the link their traces run over (before the hub, which uses them).
  await app.register(agentsPlugin, { runner, ingest, version: opts.version });
  // Accounts (staff) and the subscription (cloud flavour): after agents, whose figures they show.
  await app.register(accountsPlugin);
  // The settings editor: its saves restart the targets whose engine settings changed.
  await app.register(settingsPlugin, { runner });
  await app.register(targetsPlugin, targetDeps);
  // One data service for both doors: REST and /mainHub read open sessions from memory alike.
  // The runner answers which hops' probes are still out (the Pending code).
  const data = createDataService(opts.store, ingest, (id) => runner.agent.waitingTtls(id));
  await app.register(dataPlugin, { data });
  // The Path view (issue 44): one deps object for its REST route and hub method.
  const pathView = { store: opts.store, data, open: ingest };
  await app.register(pathViewPlugin, { deps: pathView });
  await app.register(insightsPlugin, { recent: ingest });
  await app.register(storagePlugin, { store: opts.store, env: opts.config });
  await app.register(dataFilesPlugin, { data, ingest });
  // Alerts evaluate each ingest commit; their notifications go through a durable queue.
  const alerts = new AlertService({ store: opts.store, events: app.events, config: opts.config, log: app.log, sendMail: mailer(opts.store), leadership });
  // Several replicas: which agents are linked anywhere (server/cluster/presence.ts), for the leader's agent-offline decisions.
  let presenceListener: ((agentId: number, online: boolean) => void) | undefined;
  const presence =
    leadership instanceof PgLeadership
      ? new ClusterPresence({ leadership, read: (fn) => opts.store.read(fn), changed: (id, online) => presenceListener?.(id, online), firstRead: () => alerts.checkAgents(), warn: (msg) => app.log.warn(msg) })
      : undefined;
  if (presence) {
    app.events.on('AgentConnection', (_accountId, agentId, online) => (online ? presence.linked(agentId) : presence.unlinked(agentId)));
    app.addHook('onClose', async () => presence.close());
  }
  await alerts.start(ingest, {
    isAgentOnline: (id) => app.agents.links.isOnline(id) || (presence?.isOnline(id) ?? false),
    onClusterPresence: presence ? (listener) => (presenceListener = listener) : undefined,
    clusterPresenceReady: presence ? () => presence.ready : undefined,
    refreshClusterPresence: presence ? () => presence.poll() : undefined,
  });
  presence?.start();
  app.addHook('onClose', () => alerts.close());
  await app.register(mailPlugin);
  await app.register(alertsPlugin, { alerts });
  await app.register(metricsPlugin, { ingest, alerts, isAgentOnline: (id) => app.agents.links.isOnline(id) });
  await app.register(staffPlugin, { version: opts.version });
  await app.register(sidekickPlugin, { targets: targetDeps, data });
  await app.register(mainHubPlugin, { targets: targetDeps, data, pathView });
  await app.register(webPlugin, { webDir: opts.config.webDir });

  // Sessions that were running when the server stopped run again; hosted customers' Local
  // Machine traces without the grant (started before issue 39 item 15) are paused instead.
  app.addHook('onReady', async () => {
    const paused = await opts.store.exclusive((q) => pauseRefusedLocalMachineTraces(q, opts.config.deployment));
    if (paused.length) app.log.warn({ count: paused.length }, "paused customers' Local Machine traces: the Local Machine is the provider's unless staff grant it");
    const open = await opts.store.exclusive((q) => sessionsInStates(q, [SessionState.Active]));
    // Several replicas: the Local Machine's are the leader's (localMachine starts them there).
    const here = localMachine ? open.filter((s) => s.sentinelId !== LocalMachineAgentId) : open;
    for (const s of here) await runner.run(s);
    if (here.length) app.log.info({ count: here.length }, 'resumed traces');
    localMachine?.start();
  });
  return app;
}
