// Connects sessions to the built-in Local Machine agent: starts its traces, and feeds
// their rounds, route changes and resolutions into ingest and the store.
import type { FastifyBaseLogger } from 'fastify';
import { AgentRuntime, type AgentSink, type StartTrace } from '../../agent/runtime.js';
import { EngineError, type RouteChange, type TraceRound } from '../../engine/index.js';
import { rowId } from '../contract/targets.js';
import type { DomainEventBus } from '../events.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Store } from '../store/db.js';
import { type SessionRecord } from './repository.js';
import { TargetIpWrites } from './target-ip-writes.js';
import { engineOptionsOf } from './engine-settings.js';
import { insertComment } from '../comments/repository.js';
import { generalSettings } from '../settings/service.js';
import { RoutedRuntime } from '../agents/routed-runtime.js';
import { LocalMachineAgentId } from '../contract/sessions.js';
import { remoteAccessOf, RemoteServerAccessKey, remoteServerSeal, type WithRemoteServerAccess } from '../remote-server/settings.js';
import { startWithRemoteServers } from '../remote-server/trace.js';
import type { RemoteServerAccess } from '../remote-server/client.js';
import { startTrace as engineStartTrace } from '../trace-engine.js';

export class TraceRunner {
  /** The Local Machine runtime, and remote agents once the agents plugin attached their links. */
  readonly agent: RoutedRuntime;
  private readonly accountOf = new Map<number, number>();
  /** Last engine error per session, shown to users who ask for the target. */
  readonly errors = new Map<number, string>();
  /** Resolved target addresses, written to the sessions rows in groups. */
  readonly targetIps: TargetIpWrites;

  constructor(
    private readonly store: Store,
    private readonly ingest: IngestPipeline,
    private readonly events: DomainEventBus,
    private readonly log: FastifyBaseLogger,
    start?: StartTrace,
    /** Where remote-server passwords' key is (server/remote-server/settings.ts); without it those traces cannot start. */
    private readonly dataDir?: string,
  ) {
    this.targetIps = new TargetIpWrites(store, log);
    const sink: AgentSink = {
      round: (id, round) => this.onRound(id, round),
      routeChange: (id, change) => void this.onRouteChange(id, change),
      targetResolved: (id, address) => this.targetIps.set(id, address),
      traceError: (id, err) => {
        this.errors.set(id, err.message);
        this.log.error({ sessionId: id, code: err instanceof EngineError ? err.code : undefined, msg: err.message }, 'trace error');
      },
    };
    // The Local Machine runs the engine's traces, and those of configurations with the
    // remote-server packet type by having another Hopwatch run them (server/remote-server/).
    this.agent = new RoutedRuntime(new AgentRuntime(sink, startWithRemoteServers(start ?? engineStartTrace)));
  }

  private onRound(sessionId: number, round: TraceRound): Promise<void> {
    for (const hop of round.hops) {
      this.ingest.add(sessionId, round.time, hop.ttl, hop.rtt);
      if (hop.address) this.ingest.seeHost({ sessionId, hop: hop.ttl, address: hop.address, dnsName: hop.name ?? '' });
    }
    this.ingest.seeHopHosts(sessionId, round.time, round.hops);
    return this.ingest.commit();
  }

  private async onRouteChange(sessionId: number, c: RouteChange): Promise<void> {
    await this.store.run(
      'INSERT INTO route_changes (session_id, time, hop, old_address, new_address) VALUES ($1, $2, $3, $4, $5)',
      [sessionId, c.time, c.ttl, c.previous, c.current],
    );
    const accountId = this.accountOf.get(sessionId);
    if (accountId === undefined) return;
    this.events.emit('RouteChanged', accountId, sessionId, rowId(sessionId, c.ttl));
    await this.commentRouteChange(accountId, sessionId, c);
  }

  /** Settings > General "Create a comment when the route changes": a comment on the graph at the change. */
  private async commentRouteChange(accountId: number, sessionId: number, c: RouteChange): Promise<void> {
    const general = await this.store.read((q) => generalSettings(q, accountId));
    if (general.CreateCommentOnRouteChange !== true) return;
    const text = `Route changed at hop ${c.ttl}: ${c.previous ?? '*'} -> ${c.current ?? '*'}`;
    const extra = JSON.stringify({ RouteChange: { Hop: c.ttl, Previous: c.previous, Current: c.current } });
    const id = await this.store.exclusive((q) => insertComment(q, { sessionId, whenMs: c.time, text, type: 0, extraAttributesJson: extra }, 0));
    this.events.emit('CommentChanged', accountId, sessionId, c.time, id);
  }

  private remoteAccessIn(stored: Record<string, unknown>): RemoteServerAccess | undefined {
    const dataDir = this.dataDir;
    return remoteAccessOf(stored, (sealed) => (dataDir ? remoteServerSeal(this.store, dataDir).open(sealed) : ''));
  }

  /** The remote server a configuration's traces run on (packet type ptTraceViaRemoteServer), or undefined when they run on an agent. */
  async remoteAccess(configId: number): Promise<RemoteServerAccess | undefined> {
    return this.remoteAccessIn((await this.store.read((q) => engineOptionsOf(q, configId))).stored);
  }

  async run(s: SessionRecord, paused = false): Promise<void> {
    this.accountOf.set(s.id, s.accountId);
    this.ingest.openSession(s.id, s.accountId);
    this.errors.delete(s.id);
    const { engine, finalHopOnly, stored } = await this.store.read((q) => engineOptionsOf(q, s.configurationId));
    const remote = this.remoteAccessIn(stored);
    const options: typeof engine & WithRemoteServerAccess = remote ? { [RemoteServerAccessKey]: remote } : engine;
    const here = await this.agent.run({
      // A remote-server trace is run from here (the other Hopwatch is its agent), whatever agent the target names.
      agentId: remote ? LocalMachineAgentId : s.sentinelId,
      traceId: s.id,
      engine: options,
      // Dynamic DNS Off (Settings > General when the target started): the address it started with.
      target: (s.dynamicDnsMode === 1 && s.targetName) || s.targetIp || s.targetName,
      intervalMs: s.traceIntervalMs,
      // The target's own toggle, or its configuration's "Final hop only".
      finalHopOnly: s.finalHopOnly || finalHopOnly,
      paused,
    });
    if (here) this.log.info({ sessionId: s.id, target: s.targetName || s.targetIp, intervalMs: s.traceIntervalMs, paused }, 'trace started');
    else this.log.info({ sessionId: s.id }, 'trace left to the leader (the Local Machine runs on the leader replica)');
  }

  /** Stops probing and rolls the session's data up completely. */
  async finish(sessionId: number): Promise<void> {
    await this.agent.stop(sessionId);
    await this.ingest.finishSession(sessionId);
    this.accountOf.delete(sessionId);
    this.log.info({ sessionId }, 'trace stopped');
  }

  async close(): Promise<void> {
    await this.agent.stopAll();
    await this.targetIps.flush();
  }
}
