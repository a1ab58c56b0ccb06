// The server's end of the agent link (agent/protocol.ts, docs/agents.md): authenticates
// agents on the WebSocket upgrade, assigns them their traces, and ingests the round batches
// they send, acknowledging each only after its DuckDB commit. A batch sent twice is stored
// once: batches at or below the agent's last committed sequence number are acknowledged
// without ingest, and rounds at or before a session's last committed sample time are
// skipped (this covers a crash between the ingest commit and the sequence number's write).
//
// Everything an agent sends is checked against that agent first (issue 39): a message naming a
// session is taken only for a session of this agent (same agent id, same account), and the
// answer to a request is looked up among the requests sent on this link, by the link's own
// numbers, so no agent can answer another's. A batch whose sequence number or times no agent
// means is refused with the reason (./batch-checks.ts), which the agent drops.
//
// A link that goes silent is closed by the heartbeat (agent/link-heartbeat.ts, issue 40): the
// server pings every agent every 8 s and terminates a link it has heard nothing from for 20 s,
// so a dropped path or a reset that never arrived shows the agent OFFLINE within 30 s.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { Ajv, type ValidateFunction } from 'ajv';
import { AgentMessageSchema, MaxFrameBytes, type AgentMessage, type AssignedTrace, type ServerMessage, type WireRound } from '../../agent/protocol.js';
import type { AgentTraceSpec } from '../../agent/runtime.js';
import { rejectUpgrade, routeUpgrades } from '../hub/upgrade-router.js';
import type { Store } from '../store/db.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { DomainEventBus } from '../events.js';
import { rowId } from '../contract/targets.js';
import { TargetIpWrites } from '../targets/target-ip-writes.js';
import { keyMatches } from './keys.js';
import { bearerCredentials } from '../http/authorization.js';
import { batchProblem, timeProblem } from './batch-checks.js';
import * as repo from './repository.js';
import { listParam } from '../store/id-list.js';
import { BatchedLookup } from '../store/batched-lookup.js';
import { HeartbeatTicker, heartbeatStep, silenceText, type HeartbeatPeer } from '../../agent/link-heartbeat.js';
import { GroupedWrites } from '../store/grouped-writes.js';
import type { LinkCommand, LinkPeers } from './link-peers.js';

interface Connection {
  agentId: number;
  accountId: number;
  ws: WebSocket;
  /** Frames are handled one after another (batches in order). */
  queue: Promise<void>;
  /** Acknowledgements, in batch order, each after its batch's commit. */
  acks: Promise<void>;
  /** Newest batch committed (and acknowledged); newest batch added to ingest. */
  lastSeq: number;
  lastAdded: number;
  helloSeen: boolean;
  /** The network interfaces the agent reported in its hello (newer agents). */
  interfaces?: { ID: string; Name: string }[];
  /** Re-resolve requests sent on this link and not yet answered, by this link's request numbers. */
  pending: Map<number, PendingResolve>;
  nextReq: number;
  /**
   * When the agent was last heard (any bytes on its socket, not only whole frames: a large batch
   * on a slow path takes long to arrive, and the pong waits behind it) and last pinged.
   */
  heartbeat: HeartbeatPeer;
}

interface PendingResolve {
  traceId: number;
  answer(address: string | undefined): void;
}

interface Assignment {
  agentId: number;
  trace: AssignedTrace;
}

export interface AgentLinkDeps {
  store: Store;
  ingest: IngestPipeline;
  events: DomainEventBus;
  log: FastifyBaseLogger;
}

/** Parses `Authorization: Bearer <agentId>.<credential>` (the scheme in any case, server/http/authorization.ts). */
function credentialOf(request: IncomingMessage): { id: number; credential: string } | undefined {
  const h = request.headers.authorization;
  const m = /^(\d{1,10})\.([A-Za-z0-9_-]{10,200})$/.exec(bearerCredentials(h) ?? '');
  if (!m) return undefined;
  return { id: Number(m[1]), credential: m[2] };
}

/** Hellos are gathered this long before they are written (one statement for all agents that connected meanwhile). */
const HelloGatherMs = 50;

export class AgentLinks {
  private readonly conns = new Map<number, Connection>();
  private readonly assigned = new Map<number, Assignment>();
  /** Per session: the newest round time committed (rounds at or before it are duplicates). */
  private readonly committedUntil = new Map<number, number>();
  /** Per agent: the newest committed batch and when, written for all agents together at most once a second. */
  private readonly progress: GroupedWrites<{ seq: number; at: number }>;
  /** The agents' hellos, written together (200 agents connecting at once). */
  private readonly hellos: GroupedWrites<repo.Hello>;
  private readonly validate: ValidateFunction<AgentMessage>;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MaxFrameBytes, perMessageDeflate: false });
  private closing = false;
  /** One timer pings and judges every link (agent/link-heartbeat.ts). */
  private readonly heartbeat = new HeartbeatTicker((now, judge) => this.beat(now, judge));
  /** The last error an agent reported per session. */
  readonly traceErrors = new Map<number, string>();
  private readonly targetIps: TargetIpWrites;
  private readonly storedWatermarks = new BatchedLookup<number>(async (ids) => {
    const rows = await this.deps.store.read((q) =>
      q.all<{ id: number; t: number | null }>('SELECT id, latest_sample AS t FROM sessions_counted WHERE id IN (SELECT unnest($1::INTEGER[]))', [listParam(ids)]),
    );
    // latest_sample is whole milliseconds: a round within the same millisecond is the same round.
    return new Map(rows.map((r) => [Number(r.id), r.t === null ? -Infinity : Number(r.t) + 0.999]));
  }, () => -Infinity);

  /** The other replicas, when this server is one of several (./link-peers.ts). */
  private peers: LinkPeers | undefined;

  constructor(private readonly deps: AgentLinkDeps) {
    this.targetIps = new TargetIpWrites(deps.store, deps.log);
    this.progress = new GroupedWrites(deps.store, 1000, (q, rows) => repo.recordProgress(q, rows.map(([id, p]) => ({ id, ...p }))), true);
    this.hellos = new GroupedWrites(deps.store, HelloGatherMs, (q, rows) => repo.recordHellos(q, rows));
    const ajv = new Ajv({ strict: false, allErrors: false });
    this.validate = ajv.compile<AgentMessage>(AgentMessageSchema);
  }

  mount(app: FastifyInstance, path: string): void {
    const unroute = routeUpgrades(app.server, path, (request, socket, head) => {
      this.upgrade(request, socket, head).catch((err: unknown) => {
        this.deps.log.error({ err }, 'agent link upgrade failed');
        socket.destroy();
      });
    });
    this.heartbeat.start();
    app.addHook('preClose', async () => {
      this.closing = true;
      this.heartbeat.stop();
      for (const c of this.conns.values()) c.ws.close(1001, 'The server is shutting down.');
      await Promise.all([...this.conns.values()].map((c) => c.queue.then(() => c.acks)));
      await this.progress.flush().catch(() => undefined);
      await this.targetIps.flush();
    });
    app.addHook('onClose', async () => {
      unroute();
      this.wss.close();
      await this.peers?.close();
    });
  }

  /**
   * Runs these links as one replica's of several: commands reach the replica holding the
   * agent's link, and an agent linked to any replica counts as online here.
   */
  usePeers(peers: LinkPeers): void {
    this.peers = peers;
    peers.serve({
      command: (c) => this.apply(c, true),
      reResolve: (traceId) => this.reResolveHere(traceId),
    });
    peers.linkedHere(() =>
      [...this.conns.values()].filter((c) => c.helloSeen).map((c) => ({ agentId: c.agentId, ...(c.interfaces ? { interfaces: c.interfaces } : {}) })),
    );
  }

  /** Connected and introduced (its hello recorded), to this replica or another. */
  isOnline(agentId: number): boolean {
    return (this.conns.get(agentId)?.helloSeen ?? false) || (this.peers?.elsewhere().has(agentId) ?? false);
  }

  /**
   * The agents online now. Taken before a read of the agents' rows, it agrees with them: an
   * agent counts as online only once its hello (version, mode, machine) was committed, so a
   * row read after the snapshot holds it; one asked after the read could pair an agent that
   * came online meanwhile with its row from before its hello (Mode 0, no version).
   */
  onlineNow(): ReadonlySet<number> {
    const here = [...this.conns.values()].filter((c) => c.helloSeen).map((c) => c.agentId);
    return new Set([...here, ...(this.peers?.elsewhere().keys() ?? [])]);
  }

  // ---- trace control (the dispatcher calls these for sessions of remote agents) ----

  has(traceId: number): boolean {
    return this.assigned.has(traceId);
  }

  /** The network interfaces a connected agent reported, or undefined (offline, or an agent that does not report them). */
  interfacesOf(agentId: number): { ID: string; Name: string }[] | undefined {
    const c = this.conns.get(agentId);
    if (c?.helloSeen) return c.interfaces;
    return this.peers?.elsewhere().get(agentId)?.interfaces;
  }

  run(agentId: number, spec: AgentTraceSpec): void {
    const trace: AssignedTrace = {
      traceId: spec.traceId,
      target: spec.target,
      intervalMs: spec.intervalMs,
      finalHopOnly: spec.finalHopOnly,
      paused: spec.paused ?? false,
      engine: spec.engine,
    };
    this.command({ t: 'run', agentId, trace });
  }

  stop(traceId: number): void {
    this.command({ t: 'stop', traceId });
  }

  pause(traceId: number): void {
    this.update(traceId, (t) => (t.paused = true), { t: 'pause', traceId });
  }

  resume(traceId: number): void {
    this.update(traceId, (t) => (t.paused = false), { t: 'resume', traceId });
  }

  setInterval(traceId: number, intervalMs: number): void {
    this.update(traceId, (t) => (t.intervalMs = intervalMs), { t: 'interval', traceId, intervalMs });
  }

  setFinalHopOnly(traceId: number, on: boolean): void {
    this.update(traceId, (t) => (t.finalHopOnly = on), { t: 'finalHop', traceId, on });
  }

  /** Applied here, and on every other replica: the one holding the agent's link sends it. */
  private command(c: LinkCommand): void {
    this.apply(c, false);
    this.peers?.broadcast(c);
  }

  /**
   * A command for the assignments and, when this replica holds the agent's link, the agent.
   * `fromPeer`: another replica's; a run it repeats unchanged (every replica runs the open
   * sessions when it starts) sends nothing again.
   */
  private apply(c: LinkCommand, fromPeer: boolean): void {
    switch (c.t) {
      case 'run': {
        const had = this.assigned.get(c.trace.traceId);
        if (fromPeer && had && had.agentId === c.agentId && JSON.stringify(had.trace) === JSON.stringify(c.trace)) return;
        this.assigned.set(c.trace.traceId, { agentId: c.agentId, trace: c.trace });
        this.send(c.agentId, { t: 'start', trace: c.trace });
        return;
      }
      case 'stop': {
        const a = this.assigned.get(c.traceId);
        if (!a) return;
        this.assigned.delete(c.traceId);
        this.committedUntil.delete(c.traceId);
        this.send(a.agentId, { t: 'stop', traceId: c.traceId });
        return;
      }
      case 'update': {
        const had = this.assigned.get(c.trace.traceId);
        this.assigned.set(c.trace.traceId, { agentId: c.agentId, trace: c.trace });
        // Not held here before (this replica started while the trace was paused): the agent may not have it either.
        this.send(c.agentId, had?.agentId === c.agentId ? c.message : { t: 'start', trace: c.trace });
        return;
      }
      case 'disconnect':
        return this.disconnectHere(c.agentId, c.uninstall, c.reason);
    }
  }

  /**
   * Asks the agent to resolve again; undefined when it is offline or does not answer in 10 s.
   * Another replica's link is asked through it.
   */
  reResolve(traceId: number): Promise<string | undefined> {
    const a = this.assigned.get(traceId);
    if (a && !this.conns.get(a.agentId)?.helloSeen && this.peers) return this.peers.reResolve(a.agentId, traceId);
    return this.reResolveHere(traceId);
  }

  private reResolveHere(traceId: number): Promise<string | undefined> {
    const a = this.assigned.get(traceId);
    const c = a && this.conns.get(a.agentId);
    if (!c?.helloSeen) return Promise.resolve(undefined);
    const req = c.nextReq++;
    return new Promise((resolve) => {
      const answer = (address: string | undefined) => {
        clearTimeout(timer);
        c.pending.delete(req);
        resolve(address);
      };
      const timer = setTimeout(() => answer(undefined), 10_000);
      c.pending.set(req, { traceId, answer });
      this.sendOn(c, { t: 'reresolve', traceId, req });
    });
  }

  tracesOf(agentId: number): number[] {
    return [...this.assigned.entries()].filter(([, a]) => a.agentId === agentId).map(([id]) => id);
  }

  /** Closes the agent's connection (it reconnects by itself), after `uninstall` if asked; on whichever replica holds it. */
  disconnect(agentId: number, opts: { uninstall?: boolean; reason: string }): void {
    this.command({ t: 'disconnect', agentId, uninstall: opts.uninstall ?? false, reason: opts.reason });
  }

  private disconnectHere(agentId: number, uninstall: boolean, reason: string): void {
    const c = this.conns.get(agentId);
    if (!c) return;
    if (uninstall) this.sendOn(c, { t: 'uninstall' });
    c.ws.close(uninstall ? 4001 : 4000, reason);
  }

  /** Changes a trace held here, tells its agent if linked here, and the other replicas. */
  private update(traceId: number, change: (t: AssignedTrace) => void, message: ServerMessage): void {
    const a = this.assigned.get(traceId);
    if (!a) return;
    change(a.trace);
    this.send(a.agentId, message);
    this.peers?.broadcast({ t: 'update', agentId: a.agentId, trace: { ...a.trace }, message });
  }

  private send(agentId: number, msg: ServerMessage): void {
    const c = this.conns.get(agentId);
    if (c?.helloSeen) this.sendOn(c, msg);
  }

  private sendOn(c: Connection, msg: ServerMessage): void {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(msg));
  }

  // ---- connections ----

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    if (this.closing) return rejectUpgrade(socket, 503, 'The server is shutting down.');
    const cred = credentialOf(request);
    if (!cred) return rejectUpgrade(socket, 401, 'The agent link needs the agent credential (Authorization: Bearer <id>.<credential>).');
    const agent = await this.deps.store.read((q) => repo.findAgent(q, cred.id));
    if (!agent || !keyMatches(cred.credential, agent.credentialHash)) {
      this.deps.log.warn({ agentId: cred.id }, 'agent link refused: unknown agent or wrong credential');
      return rejectUpgrade(socket, 401, 'Unknown agent or wrong credential: set the agent up again with a new Auto Setup link.');
    }
    if (socket.destroyed) return;
    this.wss.handleUpgrade(request, socket, head, (ws) => this.attach(agent, ws, socket));
  }

  /** Pings the links due for a ping and terminates those silent too long (no closing handshake: no one would answer it). */
  private beat(now: number, judge: boolean): void {
    for (const c of this.conns.values()) {
      const step = heartbeatStep(c.heartbeat, now, judge);
      if (step === 'ping') {
        c.heartbeat.lastPing = now;
        if (c.ws.readyState === c.ws.OPEN) c.ws.ping();
      } else if (step === 'dead') {
        this.deps.log.warn({ agentId: c.agentId, silence: silenceText(c.heartbeat, now) }, 'agent link dead: closed');
        c.ws.terminate();
      }
    }
  }

  private attach(agent: repo.AgentRecord, ws: WebSocket, socket: Duplex): void {
    const old = this.conns.get(agent.id);
    if (old) old.ws.close(4002, 'Another connection of this agent replaced this one.');
    const c: Connection = {
      agentId: agent.id,
      accountId: agent.accountId,
      ws,
      queue: Promise.resolve(),
      acks: Promise.resolve(),
      lastSeq: agent.lastSeq,
      lastAdded: agent.lastSeq,
      helloSeen: false,
      pending: new Map(),
      nextReq: 1,
      heartbeat: { lastHeard: Date.now(), lastPing: Date.now() },
    };
    socket.on('data', () => (c.heartbeat.lastHeard = Date.now()));
    this.conns.set(agent.id, c);
    this.deps.log.info({ agentId: agent.id }, 'agent connected');
    ws.on('message', (data, isBinary) => {
      c.queue = c.queue.then(() => this.onFrame(c, isBinary ? undefined : data.toString())).catch((err: unknown) => {
        this.deps.log.error({ err, agentId: c.agentId }, 'agent frame failed');
        ws.close(1011, 'The server could not handle a message; it has been logged.');
      });
    });
    ws.on('close', () => {
      // Requests sent on this link get no answer now (a new link numbers its own).
      for (const p of [...c.pending.values()]) p.answer(undefined);
      void c.acks.then(() => this.progress.flush()).catch(() => undefined);
      if (this.conns.get(agent.id) === c) {
        this.conns.delete(agent.id);
        this.deps.log.info({ agentId: agent.id }, 'agent disconnected');
        this.deps.events.emit('AgentsChanged', agent.accountId);
        if (c.helloSeen) {
          this.peers?.changed(agent.id);
          this.deps.events.emit('AgentConnection', agent.accountId, agent.id, false);
        }
      }
    });
    ws.on('error', () => ws.terminate());
  }

  private refuse(c: Connection, message: string): void {
    this.deps.log.warn({ agentId: c.agentId, msg: message }, 'agent message refused');
    c.ws.close(1008, message.slice(0, 120));
  }

  private async onFrame(c: Connection, text: string | undefined): Promise<void> {
    if (this.conns.get(c.agentId) !== c) return;
    let msg: unknown;
    try {
      msg = text === undefined ? undefined : JSON.parse(text);
    } catch {
      return this.refuse(c, 'A message of the agent link is JSON text.');
    }
    if (!this.validate(msg)) return this.refuse(c, 'Malformed agent message.');
    const m = msg;
    if (m.t === 'hello') return this.onHello(c, m);
    if (!c.helloSeen) return this.refuse(c, 'The agent must say hello first.');
    if (m.t === 'batch') return this.onBatch(c, m.seq, m.rounds);
    // Every other message names a session: only this agent's own is taken. Ignored (not a
    // close): an agent may still report on a session deleted while it was away.
    if (!(await this.owns(c, m.traceId))) {
      this.deps.log.warn({ agentId: c.agentId, sessionId: m.traceId, type: m.t }, 'agent message ignored: session of another agent');
      return;
    }
    switch (m.t) {
      case 'route': {
        const late = timeProblem(m.change.time, Date.now());
        if (late) {
          this.deps.log.warn({ agentId: c.agentId, sessionId: m.traceId, problem: late }, 'agent route change ignored');
          return;
        }
        await this.deps.store.run(
          'INSERT INTO route_changes (session_id, time, hop, old_address, new_address) VALUES ($1, $2, $3, $4, $5)',
          [m.traceId, m.change.time, m.change.ttl, m.change.previous, m.change.current],
        );
        this.deps.events.emit('RouteChanged', c.accountId, m.traceId, rowId(m.traceId, m.change.ttl));
        return;
      }
      case 'resolved': {
        // The answer to a request of this link about this very session (a number alone names nothing).
        const pending = m.req === undefined ? undefined : c.pending.get(m.req);
        if (pending?.traceId === m.traceId) pending.answer(m.address);
        this.targetIps.set(m.traceId, m.address);
        return;
      }
      case 'traceError':
        this.deps.log.error({ agentId: c.agentId, sessionId: m.traceId, error: m.message }, 'trace error on agent');
        this.traceErrors.set(m.traceId, m.message);
        return;
    }
  }

  private async onHello(c: Connection, m: Extract<AgentMessage, { t: 'hello' }>): Promise<void> {
    const at = Date.now();
    await this.hellos.set(c.agentId, { machineId: m.machineId, machineName: m.machineName, platform: m.platform, version: m.version, mode: m.mode, at });
    c.helloSeen = true;
    c.interfaces = m.interfaces;
    const traces = [...this.assigned.values()].filter((a) => a.agentId === c.agentId).map((a) => a.trace);
    this.sendOn(c, { t: 'assign', traces, lastSeq: c.lastSeq });
    this.peers?.changed(c.agentId);
    this.deps.events.emit('AgentsChanged', c.accountId);
    this.deps.events.emit('AgentConnection', c.accountId, c.agentId, true);
  }

  /** Whether the session is this agent's (a round of another agent's session is refused). */
  private async owns(c: Connection, sessionId: number): Promise<boolean> {
    const a = this.assigned.get(sessionId);
    if (a) return a.agentId === c.agentId;
    const row = await this.deps.store.read((q) =>
      q.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM sessions WHERE id = $1 AND sentinel_id = $2 AND account_id = $3', [sessionId, c.agentId, c.accountId]),
    );
    return (row?.n ?? 0) > 0;
  }

  /**
   * The newest committed round time of each session (rounds at or before it are duplicates),
   * for the sessions this link has not seen yet: from ingest, which holds every open session's
   * newest committed sample time, or else from the store, the first batches of all agents
   * sharing one statement per turn of the event loop. (One read each of the sessions_counted
   * view, 30 to 40 ms under load, made 200 agents' start a backlog of seconds.)
   */
  private async watermarks(sessionIds: number[]): Promise<Map<number, number>> {
    await Promise.all(
      sessionIds
        .filter((id) => !this.committedUntil.has(id))
        .map(async (id) => {
          const held = this.deps.ingest.committedUntil(id);
          // Whole milliseconds (the store's): a round within the same millisecond is the same round.
          const t = held === undefined ? await this.storedWatermarks.get(id) : held + 0.999;
          if (!this.committedUntil.has(id)) this.committedUntil.set(id, t);
        }),
    );
    return new Map(sessionIds.map((id) => [id, this.committedUntil.get(id)!]));
  }

  /**
   * Adds the batch to ingest now (batches in order) and acknowledges it once the ingest
   * commit that holds it is done, without holding up the next batch: one agent's batches
   * ride on the same group commits. The sequence number is written to the agents row at most
   * once a second: a number that lags only makes the agent resend batches whose rounds are
   * then skipped by the time watermark.
   */
  private async onBatch(c: Connection, seq: number, rounds: WireRound[]): Promise<void> {
    if (seq <= c.lastAdded) {
      c.acks = c.acks.then(() => this.sendOn(c, { t: 'ack', seq }));
      return;
    }
    // Everything is checked before anything is added: a refused batch stores nothing.
    const problem = batchProblem(c.lastAdded, seq, rounds, Date.now());
    if (problem) {
      this.deps.log.warn({ agentId: c.agentId, seq, problem }, 'agent batch refused');
      c.acks = c.acks.then(() => this.sendOn(c, { t: 'refused', seq, Error: problem }));
      return;
    }
    const ids = [...new Set(rounds.map((r) => r.traceId))];
    for (const id of ids) {
      if (!(await this.owns(c, id))) {
        this.deps.log.warn({ agentId: c.agentId, sessionId: id, seq }, 'agent batch refused: session of another agent');
        c.acks = c.acks.then(() => this.sendOn(c, { t: 'refused', seq, Error: `Session ${id} is not a session of this agent; the batch was not stored.` }));
        return;
      }
    }
    let added = 0;
    // Rounds of a session that is no longer running (closed while the agent was away) are dropped.
    const newest = await this.watermarks(ids.filter((id) => this.assigned.has(id)));
    for (const r of rounds) {
      const mark = newest.get(r.traceId);
      if (mark === undefined || r.time <= mark) continue;
      newest.set(r.traceId, r.time);
      for (const hop of r.hops) {
        this.deps.ingest.add(r.traceId, r.time, hop.ttl, hop.rtt);
        if (hop.address) this.deps.ingest.seeHost({ sessionId: r.traceId, hop: hop.ttl, address: hop.address, dnsName: hop.name ?? '' });
        added++;
      }
      this.deps.ingest.seeHopHosts(r.traceId, r.time, r.hops);
    }
    // The watermark moves now, so the next batch (added before this commit ends) is checked against it.
    for (const [id, t] of newest) this.committedUntil.set(id, t);
    c.lastAdded = seq;
    const committed = added > 0 ? this.deps.ingest.commit() : Promise.resolve();
    c.acks = c.acks.then(
      () =>
        committed.then(
          () => {
            c.lastSeq = seq;
            this.sendOn(c, { t: 'ack', seq });
            // A lagging number only makes the agent resend batches the time watermark then skips.
            this.progress.set(c.agentId, { seq, at: Date.now() }).catch(() => undefined);
          },
          (err: unknown) => {
            // Not committed: forget the watermarks (read again from the store) and let the agent resend.
            for (const id of newest.keys()) this.committedUntil.delete(id);
            c.lastAdded = c.lastSeq;
            this.deps.log.error({ err, agentId: c.agentId, seq }, 'agent batch not committed');
            c.ws.close(1011, 'The server could not store a batch; it will be sent again.');
          },
        ),
    );
  }
}
