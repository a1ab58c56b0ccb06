// The remote agent program: runs the traces its server assigns with the same AgentRuntime the
// server uses for the Local Machine, spools every round to disk, and streams the batches over
// the agent link, deleting each only after the server acknowledged its commit. Keeps tracing
// (from traces.json) while the server is away, and reconnects by itself. A link that goes
// silent (a dropped path, a server that vanished without a reset) is ended by the heartbeat
// (./link-heartbeat.ts) within 20 s, and the agent reconnects as after any other close.
import { appendFileSync } from 'node:fs';
import { hostname, networkInterfaces, platform as osPlatform } from 'node:os';
import WebSocket from 'ws';
import type { TraceEngine, TraceRound } from '../engine/index.js';
import { AgentRuntime, type AgentSink } from './runtime.js';
import { AgentLinkPath, AgentProtocolVersion, MaxBatchRounds, wireRoundText, type AgentMessage, type AssignedTrace, type ServerMessage } from './protocol.js';
import { Spool, type SpoolLimits, type SpooledFrame } from './spool.js';
import { BatchBuffer } from './batch-buffer.js';
import type { AgentState, Credentials } from './state.js';
import { writeLinkStatus, type LinkStatus } from './link-status.js';
import { HeartbeatTicker, heartbeatStep, silenceText, type HeartbeatPeer } from './link-heartbeat.js';

export const AgentVersion = '0.1.0.0';
export const AgentModeCode = { SERVICE: 1, APP: 2 } as const;

/**
 * How long rounds are gathered into one batch by default (ms): each batch is a spool line (a
 * write) and a frame, so rounds that end together share them; every round waits this long
 * before it leaves, which is part of the delay the console sees (bench:agents).
 */
export const DefaultBatchMs = 50;

/** Spooled bytes sent and not yet acknowledged while a backlog is resent (at least one batch). */
export const ResendWindowBytes = 8 * 1024 * 1024;

export interface AgentProgramOptions {
  state: AgentState;
  engine: TraceEngine;
  mode: number;
  log?: (msg: string) => void;
  spoolLimits?: SpoolLimits;
  /** How long rounds are gathered into one batch (ms). */
  batchMs?: number;
  /** Appends one line per round (trace id, time, hop count, and 'stop' or 'start' for a marker round): a record to check deliveries against. */
  roundLog?: string;
  /** Called when the server asked to uninstall (after state was removed). */
  onUninstall?: () => void;
  /** PEM CA certificate(s) a wss:// server is verified with (agent/trust.ts); default: system roots. */
  ca?: string;
}

const sameTrace = (a: AssignedTrace, b: AssignedTrace) =>
  a.target === b.target && JSON.stringify(a.engine ?? {}) === JSON.stringify(b.engine ?? {});

export class AgentProgram {
  private readonly runtime: AgentRuntime;
  private readonly spool: Spool;
  private readonly traces = new Map<number, AssignedTrace>();
  /** The rounds of the batch window, encoded as they arrive. */
  private readonly gathered = new BatchBuffer();
  private gatherTimer: NodeJS.Timeout | undefined;
  private ws: WebSocket | undefined;
  /**
   * The server's messages, handled one after another across connections too: an assignment
   * from a new connection waits for the old connection's, which may still be stopping traces.
   */
  private messages: Promise<void> = Promise.resolve();
  private ready = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = 1000;
  private readonly log: (msg: string) => void;
  /** Sequence numbers sent on the current connection (each sent once per connection). */
  private sent = new Set<number>();
  /**
   * Spooled batches still to send after a reconnect, oldest first, read from disk a few at a
   * time (ResendWindowBytes): a spool of days would not fit in memory, nor in the socket's
   * buffer. New batches queue behind them, since the server takes batches in order only.
   */
  private resend: number[] = [];
  /** The link's state as last written to link.json (for `hopwatch-agent health`). */
  private link?: LinkStatus;
  /** Why the last connection attempt failed (the server's refusal, a socket error), for the link state. */
  private downReason?: string;
  /** The open link's heartbeat: when the server was last heard and last pinged. */
  private heard: HeartbeatPeer = { lastHeard: 0, lastPing: 0 };
  private readonly heartbeat = new HeartbeatTicker((now, judge) => this.beat(now, judge));

  constructor(
    private readonly creds: Credentials,
    private readonly opts: AgentProgramOptions,
  ) {
    this.log = opts.log ?? ((m) => console.log(`${new Date().toISOString()} ${m}`));
    this.spool = new Spool(opts.state.spoolDir, opts.spoolLimits, this.log);
    const sink: AgentSink = {
      round: (traceId, round) => this.onRound(traceId, round),
      routeChange: (traceId, change) => this.sendNow({ t: 'route', traceId, change }),
      targetResolved: (traceId, address) => this.sendNow({ t: 'resolved', traceId, address }),
      traceError: (traceId, err) => {
        this.log(`trace ${traceId}: ${err.message}`);
        this.sendNow({ t: 'traceError', traceId, message: err.message.slice(0, 2000) });
      },
    };
    this.runtime = new AgentRuntime(sink, (o) => opts.engine.startTrace(o));
  }

  /** Starts the traces kept on disk and connects. */
  async start(): Promise<void> {
    this.setLink('down', 'connecting');
    for (const t of this.opts.state.readTraces()) await this.startTrace(t, false);
    if (this.traces.size) this.log(`running ${this.traces.size} trace(s) kept on disk`);
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.heartbeat.stop();
    await this.runtime.stopAll();
    this.flushGathered();
    this.spool.close();
    this.ws?.close(1000, 'agent stopping');
    await this.opts.engine.shutdown();
  }

  get spooled(): number {
    return this.spool.size + this.gathered.rounds;
  }

  // ---- rounds ----

  private onRound(traceId: number, round: TraceRound): void {
    if (this.opts.roundLog) appendFileSync(this.opts.roundLog, `${traceId} ${round.time} ${round.hops.length}${round.marker ? ` ${round.marker}` : ''}\n`);
    this.gathered.add(wireRoundText(traceId, round));
    if (this.gathered.rounds >= MaxBatchRounds) this.flushGathered();
    else this.gatherTimer ??= setTimeout(() => this.flushGathered(), this.opts.batchMs ?? DefaultBatchMs);
  }

  private flushGathered(): void {
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
    if (!this.gathered.rounds) return;
    const batch = this.spool.append(this.gathered);
    if (!this.ready) return;
    if (this.resend.length) this.resend.push(batch.seq);
    else this.sendBatch(batch);
  }

  /** Sends spooled batches in order while those sent and not acknowledged stay within the window. */
  private pumpResend(): void {
    if (!this.ready) return;
    let inFlight = 0;
    for (const seq of this.sent) inFlight += this.spool.bytesOf(seq);
    while (this.resend.length && (inFlight < ResendWindowBytes || this.sent.size === 0)) {
      const seq = this.resend.shift()!;
      if (this.sent.has(seq)) continue;
      const b = this.spool.readFrame(seq);
      if (!b) continue; // acknowledged or dropped meanwhile
      this.sendBatch(b);
      inFlight += this.spool.bytesOf(seq);
    }
  }

  /**
   * Sends a spooled batch: the spool's line is the frame `{"t":"batch","seq":N,"rounds":[...]}`,
   * sent as those bytes in a text frame (the rounds are serialised and encoded once, for both).
   */
  private sendBatch(b: SpooledFrame): void {
    if (this.sent.has(b.seq)) return;
    this.sent.add(b.seq);
    if (this.ready && this.ws?.readyState === WebSocket.OPEN) this.ws.send(b.frame, { binary: false });
  }

  private sendNow(msg: AgentMessage): void {
    if (this.ready && this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  // ---- traces ----

  private persist(): void {
    this.opts.state.writeTraces([...this.traces.values()]);
  }

  private async startTrace(t: AssignedTrace, save = true): Promise<void> {
    this.traces.set(t.traceId, { ...t });
    try {
      await this.runtime.run({ traceId: t.traceId, target: t.target, intervalMs: t.intervalMs, finalHopOnly: t.finalHopOnly, engine: t.engine, paused: t.paused });
    } catch (err) {
      this.log(`trace ${t.traceId} to ${t.target} could not start: ${(err as Error).message}`);
    }
    if (save) this.persist();
  }

  private async assign(list: AssignedTrace[]): Promise<void> {
    const wanted = new Map(list.map((t) => [t.traceId, t]));
    for (const id of [...this.traces.keys()]) {
      if (!wanted.has(id)) {
        this.traces.delete(id);
        await this.runtime.stop(id);
      }
    }
    for (const t of list) {
      const have = this.traces.get(t.traceId);
      if (!have || !sameTrace(have, t) || !this.runtime.has(t.traceId)) {
        await this.startTrace(t, false);
        continue;
      }
      if (have.intervalMs !== t.intervalMs) this.runtime.setInterval(t.traceId, t.intervalMs);
      if (have.finalHopOnly !== t.finalHopOnly) this.runtime.setFinalHopOnly(t.traceId, t.finalHopOnly);
      if (!!have.paused !== !!t.paused) (t.paused ? this.runtime.pause(t.traceId) : this.runtime.resume(t.traceId));
      this.traces.set(t.traceId, { ...t });
    }
    this.persist();
    this.log(`server assigned ${list.length} trace(s)`);
  }

  private change(traceId: number, fn: (t: AssignedTrace) => void): void {
    const t = this.traces.get(traceId);
    if (!t) return;
    fn(t);
    this.persist();
  }

  private async onMessage(m: ServerMessage): Promise<void> {
    switch (m.t) {
      case 'assign':
        this.spool.advanceTo(m.lastSeq);
        // Everything the server has committed is gone from the spool; the rest is resent in order.
        this.spool.acknowledge(m.lastSeq);
        await this.assign(m.traces);
        this.ready = true;
        this.setLink('up');
        this.resend = this.spool.pendingSeqs();
        this.flushGathered();
        this.pumpResend();
        return;
      case 'start':
        return this.startTrace(m.trace);
      case 'stop':
        this.traces.delete(m.traceId);
        this.persist();
        return this.runtime.stop(m.traceId);
      case 'pause':
        this.change(m.traceId, (t) => (t.paused = true));
        return this.runtime.pause(m.traceId);
      case 'resume':
        this.change(m.traceId, (t) => (t.paused = false));
        return this.runtime.resume(m.traceId);
      case 'interval':
        this.change(m.traceId, (t) => (t.intervalMs = m.intervalMs));
        return this.runtime.setInterval(m.traceId, m.intervalMs);
      case 'finalHop':
        this.change(m.traceId, (t) => (t.finalHopOnly = m.on));
        return this.runtime.setFinalHopOnly(m.traceId, m.on);
      case 'reresolve': {
        const address = await this.runtime.reResolve(m.traceId).catch(() => undefined);
        if (address) this.sendNow({ t: 'resolved', traceId: m.traceId, address, req: m.req });
        return;
      }
      case 'ack':
        this.spool.acknowledge(m.seq);
        for (const seq of this.sent) if (seq <= m.seq) this.sent.delete(seq);
        this.pumpResend();
        return;
      case 'refused':
        // Refused by its content (a session not this agent's, a time or number out of range):
        // sending it again would be refused again, so it goes, and the next ones follow.
        this.log(`the server refused batch ${m.seq} (dropped, not sent again): ${m.Error}`);
        this.spool.drop(m.seq);
        this.sent.delete(m.seq);
        this.pumpResend();
        return;
      case 'uninstall':
        this.log('the server deleted this agent and asked to uninstall: stopping traces and removing credentials');
        this.stopped = true;
        await this.runtime.stopAll();
        this.opts.state.removeAll();
        this.opts.onUninstall?.();
        return;
    }
  }

  // ---- connection ----

  /** Writes link.json when the link's state or the reason it is down changes. */
  private setLink(state: LinkStatus['state'], detail?: string): void {
    if (this.link?.state === state && this.link.detail === detail) return;
    const since = this.link?.state === state ? this.link.since : Date.now();
    this.link = { state, since, pid: process.pid, ...(detail ? { detail } : {}) };
    try {
      writeLinkStatus(this.opts.state.dir, this.link);
    } catch (err) {
      // Only the health check reads it: a full disk must not stop the agent.
      this.log(`the link state was not written (${(err as Error).message})`);
    }
  }

  /**
   * Pings the server when due; ends a link the server has been silent on too long with
   * terminate (a closing handshake would wait for an answer that cannot come), so the usual
   * close handling writes link.json "down" and reconnects with its back-off.
   */
  private beat(now: number, judge: boolean): void {
    const ws = this.ws;
    if (ws?.readyState !== WebSocket.OPEN) return;
    const step = heartbeatStep(this.heard, now, judge);
    if (step === 'ping') {
      this.heard.lastPing = now;
      ws.ping();
    } else if (step === 'dead') {
      const why = `the server stopped answering: ${silenceText(this.heard, now)}`;
      this.log(`agent link: ${why}`);
      this.downReason = why;
      ws.terminate();
    }
  }

  private connect(): void {
    if (this.stopped) return;
    const url = this.creds.server.replace(/^http/, 'ws') + AgentLinkPath;
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.creds.agentId}.${this.creds.credential}` },
      handshakeTimeout: 10_000,
      ...(this.opts.ca ? { ca: this.opts.ca } : {}),
    });
    this.ws = ws;
    // Anything from the server counts as heard; its frames are small (acks, commands), so whole
    // frames and control frames are enough here (the server counts bytes: batches are large).
    const heard = () => {
      if (this.ws === ws) this.heard.lastHeard = Date.now();
    };
    ws.on('ping', heard);
    ws.on('pong', heard);
    ws.on('open', () => {
      this.retryMs = 1000;
      this.sent = new Set();
      this.heard = { lastHeard: Date.now(), lastPing: Date.now() };
      this.heartbeat.start();
      this.log(`connected to ${this.creds.server}`);
      ws.send(
        JSON.stringify({
          t: 'hello',
          protocol: AgentProtocolVersion,
          machineId: this.creds.machineId,
          machineName: hostname().slice(0, 200),
          platform: osPlatform() === 'linux' ? 3 : osPlatform() === 'win32' ? 1 : osPlatform() === 'darwin' ? 2 : 0,
          version: AgentVersion,
          mode: this.opts.mode,
          interfaces: machineInterfaces(),
        } satisfies AgentMessage),
      );
    });
    ws.on('message', (data) => {
      heard();
      let m: ServerMessage;
      try {
        m = JSON.parse(data.toString()) as ServerMessage;
      } catch {
        return;
      }
      this.messages = this.messages.then(() => this.onMessage(m)).catch((err: Error) => this.log(`message ${m.t} failed: ${err.message}`));
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        this.log(`the server refused the agent link (${res.statusCode}): ${body.slice(0, 300)}`);
        this.downReason = `refused by the server (${res.statusCode}): ${body.slice(0, 300)}`;
        ws.terminate();
      });
    });
    ws.on('error', (err) => {
      this.log(`agent link: ${err.message}`);
      this.downReason ??= err.message;
    });
    ws.on('close', (code, reason) => {
      this.ready = false;
      if (this.ws !== ws) return;
      if (this.stopped) return;
      // 1006: no closing handshake, the connection broke (a reset, or this end's terminate), nothing the server said.
      const closed = code === 1006 ? 'the connection was lost (1006)' : `closed by the server: ${code}${reason.length ? ` ${reason.toString()}` : ''}`;
      this.setLink('down', this.downReason ?? closed);
      this.downReason = undefined;
      this.log(`disconnected (${code}${reason.length ? ` ${reason.toString()}` : ''}); retrying in ${this.retryMs / 1000} s`);
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    });
  }
}

/** This machine's network interfaces as the engine names them, with their addresses (the server's settings editor lists them). */
function machineInterfaces(): { ID: string; Name: string }[] {
  return Object.entries(networkInterfaces())
    .slice(0, 64)
    .map(([name, addrs]) => ({ ID: name.slice(0, 64), Name: `${name} (${(addrs ?? []).map((a) => a.address).join(', ')})`.slice(0, 400) }));
}
