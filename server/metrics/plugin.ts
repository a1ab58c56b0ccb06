// GET /metrics (issue 22 item 4, docs/metrics.md): Prometheus text with per-target gauges
// over the last minute, agents online, ingest, hub and alert counters and the process
// metrics of prom-client. Only with `Authorization: Bearer $HOPWATCH_METRICS_TOKEN`; with the
// variable unset the endpoint is refused (404: it does not exist until turned on), so nothing
// is exposed by default.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { AlertService } from '../alerts/service.js';
import { notFound, unauthorized } from '../http/errors.js';
import { bearerCredentials } from '../http/authorization.js';
import { LocalMachineAgentId, LocalMachineAgentName } from '../contract/sessions.js';
import { TargetMinutes } from './target-minute.js';
import type { StoreMemory } from '../store/duck-memory.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export interface MetricsOptions {
  ingest: IngestPipeline;
  alerts: AlertService;
  isAgentOnline: (agentId: number) => boolean;
}

export default async function metricsPlugin(app: FastifyInstance, opts: MetricsOptions) {
  const minutes = new TargetMinutes();
  let samples = 0;
  opts.ingest.onCommitted((sessionId, s) => {
    samples += s.time.length;
    minutes.committed(sessionId, s);
  });
  app.events.on('RouteChanged', (_a, sessionId) => minutes.routeChanged(sessionId));
  let hubEvents = 0;
  app.events.on('HostUpdated', () => hubEvents++);

  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'hopwatch_' });
  const labelNames = ['target', 'target_id', 'agent', 'configuration'] as const;
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames, registers: [register] });
  const g = {
    loss: gauge('hopwatch_target_loss_percent', 'Lost probes to the target over the last minute, percent'),
    avg: gauge('hopwatch_target_latency_avg_ms', 'Average latency to the target over the last minute, ms'),
    min: gauge('hopwatch_target_latency_min_ms', 'Minimum latency to the target over the last minute, ms'),
    max: gauge('hopwatch_target_latency_max_ms', 'Maximum latency to the target over the last minute, ms'),
    cur: gauge('hopwatch_target_latency_current_ms', 'Latency of the newest round to the target, ms'),
    jitter: gauge('hopwatch_target_jitter_ms', 'Mean difference of consecutive latencies to the target over the last minute, ms'),
    hops: gauge('hopwatch_target_hops', 'Hop count of the route to the target'),
  };
  const routeChanges = new Counter({ name: 'hopwatch_target_route_changes_total', help: 'Route changes seen on the target since the server started', labelNames, registers: [register] });
  const agentsOnline = new Gauge({ name: 'hopwatch_agents_online', help: 'Agents connected now (the built-in Local Machine included)', registers: [register] });
  const counter = (name: string, help: string, value: () => number) =>
    new Counter({
      name,
      help,
      registers: [register],
      collect() {
        this.reset();
        this.inc(value());
      },
    });
  counter('hopwatch_ingest_samples_total', 'Samples committed by ingest since start', () => samples);
  counter('hopwatch_ingest_dropped_total', 'Samples refused by ingest validation since start', () => opts.ingest.dropped);
  counter('hopwatch_hub_host_updates_total', 'Target updates pushed towards /mainHub clients since start', () => hubEvents);
  counter('hopwatch_store_reads_refused_total', 'Store reads refused with 503 under overload since start (waited too long, or too many waiting)', () => app.store.readsRefused ?? 0);
  counter('hopwatch_alert_evaluations_total', 'Alert condition evaluations since start', () => opts.alerts.evaluator.evaluations);
  counter('hopwatch_alert_notifications_queued_total', 'Alert notifications queued since start', () => opts.alerts.notificationsQueued);
  counter('hopwatch_alert_notifications_delivered_total', 'Alert notifications delivered since start', () => opts.alerts.queue.delivered);
  counter('hopwatch_alert_notification_failures_total', 'Failed alert notification attempts since start', () => opts.alerts.queue.failedAttempts);

  // DuckDB's memory (its buffer pool and queries' state) against its limit, and what it spilled:
  // what an operator watches on an appliance that runs for months (docs/store.md "DuckDB's memory").
  const storeGauge = (name: string, help: string, pick: (m: StoreMemory) => number) =>
    new Gauge({
      name,
      help,
      registers: [register],
      async collect() {
        const m = await app.store.memory?.();
        if (m) this.set(pick(m));
      },
    });
  if (app.store.memory) {
    storeGauge('hopwatch_store_memory_bytes', "Memory DuckDB's buffer manager holds (cached blocks, queries' state)", (m) => m.usedBytes);
    storeGauge('hopwatch_store_memory_limit_bytes', 'The memory limit DuckDB evicts and spills beyond (HOPWATCH_STORE_MEMORY_MB)', (m) => m.limitBytes);
    storeGauge('hopwatch_store_spilled_bytes', "Bytes DuckDB has spilled to the data directory's duckdb-spill/ now", (m) => m.spilledBytes);
  }

  /** Labels of the targets in the figures, read once per scrape. */
  async function refresh(): Promise<void> {
    const figures = minutes.figures();
    const ids = [...new Set([...figures.map((f) => f.sessionId), ...minutes.routeChanges.keys()])];
    const rows = ids.length
      ? await app.store.read((q) =>
          q.all<{ id: number; target_name: string; target_ip: string; sentinel_id: number; agent: string | null; configuration: string | null }>(
            `SELECT s.id, s.target_name, s.target_ip, s.sentinel_id, a.name AS agent, c.name AS configuration
             FROM sessions s LEFT JOIN agents a ON a.id = s.sentinel_id LEFT JOIN configurations c ON c.id = s.configuration_id
             WHERE s.id IN (${ids.map(Number).join(',')})`,
          ),
        )
      : [];
    const labels = new Map(
      rows.map((r) => [
        r.id,
        {
          target: r.target_name || r.target_ip,
          target_id: String(r.id),
          agent: r.sentinel_id === LocalMachineAgentId ? LocalMachineAgentName : (r.agent ?? String(r.sentinel_id)),
          configuration: r.configuration ?? '',
        },
      ]),
    );
    for (const x of Object.values(g)) x.reset();
    routeChanges.reset();
    for (const f of figures) {
      const l = labels.get(f.sessionId);
      if (!l) continue;
      const set = (x: Gauge, v: number) => Number.isFinite(v) && x.set(l, v);
      set(g.loss, f.lossPercent);
      set(g.avg, f.avg);
      set(g.min, f.min);
      set(g.max, f.max);
      set(g.cur, f.current);
      set(g.jitter, f.jitter);
      set(g.hops, f.hops);
    }
    for (const [id, n] of minutes.routeChanges) {
      const l = labels.get(id);
      if (l) routeChanges.inc(l, n);
    }
    const agents = await app.store.read((q) => q.all<{ id: number }>('SELECT id FROM agents'));
    agentsOnline.set(1 + agents.filter((a) => opts.isAgentOnline(a.id)).length);
  }

  app.get('/metrics', { config: { access: 'public', changesState: false }, schema: { hide: false } }, async (request, reply) => {
    const token = app.config.metricsToken;
    if (!token) throw notFound('Metrics are off: set HOPWATCH_METRICS_TOKEN on the server and send it as a bearer token.');
    const given = bearerCredentials(request.headers.authorization);
    if (!given || !timingSafeEqual(digest(given), digest(token))) {
      reply.header('www-authenticate', 'Bearer realm="hopwatch-metrics"');
      throw unauthorized('GET /metrics needs Authorization: Bearer with the HOPWATCH_METRICS_TOKEN value.');
    }
    await refresh();
    reply.header('content-type', register.contentType);
    return register.metrics();
  });
}
