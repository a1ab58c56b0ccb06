// A hub: its connections and groups, method dispatch with argument checks, server-side
// sending (hub.clients...), keep-alive and time-outs, and graceful close.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { WebSocket } from 'ws';
import { type ArgsValidator, compileArgs } from './arguments.js';
import type { Audience, HubBackplane } from './backplane.js';
import { type ConnectionHost, HubConnection } from './connection.js';
import { type HubCallContext, type HubDefinition, HubError, type HubLogger } from './definition.js';
import { type DirectWriter, directWriterFromEnv, textFrame } from './direct-writes.js';
import { type FanoutProbe, fanoutProbeFromEnv, preciseNow } from './fanout-probe.js';
import {
  completionErrorFrame,
  completionResultFrame,
  type InvocationMessage,
  invocationFrame,
  MessageType,
} from './protocol.js';
import { defaultLimits, type HubLimits } from './transport.js';
import { LongPollingTransport } from './transport-long-polling.js';
import { WebSocketTransport } from './transport-websocket.js';

/** Event name -> argument tuple, for typed server-to-client sends. */
export type EventMap = Record<string, readonly unknown[]>;

export interface ClientProxy<E extends EventMap> {
  /** Sends the event to every selected connection; returns how many it was sent to. */
  send<K extends keyof E & string>(event: K, ...args: E[K]): number;
}

export interface HubOptions {
  limits?: Partial<HubLimits>;
  /** Replaced by the Fastify logger when the hub is mounted, unless given here. */
  log?: HubLogger;
  /**
   * The message a caller may see for an error a handler threw, or undefined for "unexpected"
   * (logged, generic text sent). Default: HubError, and any error carrying a 4xx or 503
   * `status` or `statusCode` (isPublicStatus: the services' HTTP errors read the same over
   * REST and the hub).
   */
  publicMessage?: (error: unknown) => string | undefined;
  /**
   * Told the times of every send (bench:hub's split of the HostUpdated delay). Default: the
   * environment's (HOPWATCH_HUB_FANOUT_PROBE=1, server/hub/fanout-probe.ts), normally none.
   */
  fanoutProbe?: FanoutProbe;
  /**
   * Connections written per turn of the event loop by a fan-out (default 500): a send to more
   * writes the rest after the I/O waiting meanwhile, so 5,000 consoles do not hold the loop
   * for all their writes at once (docs/hub.md "5,000 consoles").
   */
  fanoutSliceConnections?: number;
  /**
   * Writes a fan-out's frame to its WebSocket connections on several threads at once
   * (server/hub/direct-writes.ts). Default: the environment's (on where the addon is built,
   * off with HOPWATCH_HUB_DIRECT_WRITES=0); undefined: every frame through ws.
   */
  directWriter?: DirectWriter;
}

/** A send still being written, a slice of its connections per turn of the event loop. */
interface Fanout<C> {
  readonly targets: C[];
  next: number;
  readonly text: string;
  readonly bytes: number;
  readonly encoded: Buffer;
  /** encoded as a WebSocket frame, made for the first slice that writes directly. */
  frame: Buffer | undefined;
  readonly askedAt: number;
  firstWriteAt: number;
}

const DefaultFanoutSlice = 500;

/**
 * Whether two owner keys are the same, in time that does not depend on where they differ
 * (a key may be derived from a session secret; comparing digests keeps the lengths equal).
 */
export function sameOwner(a: string, b: string): boolean {
  const digest = (k: string) => createHash('sha256').update(k).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The completion error of an invocation whose caller is no longer signed in. */
export const SignedOutText = 'You are not signed in.';

const silentLog: HubLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Statuses whose error text the caller is told as it is: a refusal (4xx), or "too busy, ask
 * again" (503, an overloaded store's read). Anything else is internal: logged, text withheld.
 */
export function isPublicStatus(status: unknown): status is number {
  return typeof status === 'number' && ((status >= 400 && status < 500) || status === 503);
}

export function defaultPublicMessage(error: unknown): string | undefined {
  if (error instanceof HubError) return error.message;
  if (error instanceof Error) {
    const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
    if (isPublicStatus(status)) return error.message;
  }
  return undefined;
}

export class Hub<P, E extends EventMap = Record<string, unknown[]>> implements ConnectionHost<P> {
  readonly limits: HubLimits;
  log: HubLogger;
  private logGiven: boolean;
  private readonly publicMessage: (error: unknown) => string | undefined;
  private readonly fanoutProbe: FanoutProbe | undefined;
  private readonly fanoutSlice: number;
  private readonly directWriter: DirectWriter | undefined;
  /** Per slice, reused: the descriptors written directly, and each target's index among them (-1: not). */
  private readonly directFds: number[] = [];
  private readonly directIndex: number[] = [];
  /** Sends being written, oldest first: every connection gets them in the order they were made. */
  private readonly fanouts: Fanout<HubConnection<P>>[] = [];
  private fanoutScheduled = false;
  private readonly validators = new Map<string, ArgsValidator>();
  private readonly byToken = new Map<string, HubConnection<P>>();
  private readonly byId = new Map<string, HubConnection<P>>();
  /** Handshaken connections: the only ones that receive events. */
  private readonly live = new Set<HubConnection<P>>();
  private readonly groupMembers = new Map<string, Set<HubConnection<P>>>();
  private readonly contexts = new WeakMap<HubConnection<P>, HubCallContext<P>>();
  /** Long-polling connections that closed with frames (a Close) still to deliver, with their owner. */
  private readonly draining = new Map<string, { transport: LongPollingTransport; ownerKey: string }>();
  private readonly sockets = new Set<WebSocket>();
  private ticker: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    readonly definition: HubDefinition<P>,
    options: HubOptions = {},
  ) {
    this.limits = { ...defaultLimits, ...options.limits };
    this.log = options.log ?? silentLog;
    this.logGiven = options.log !== undefined;
    this.publicMessage = options.publicMessage ?? defaultPublicMessage;
    this.fanoutProbe = 'fanoutProbe' in options ? options.fanoutProbe : fanoutProbeFromEnv();
    this.fanoutSlice = Math.max(1, options.fanoutSliceConnections ?? DefaultFanoutSlice);
    this.directWriter = 'directWriter' in options ? options.directWriter : directWriterFromEnv();
    for (const [name, method] of Object.entries(definition.methods)) {
      this.validators.set(name, typeof method.args === 'function' ? method.args : compileArgs(name, method.args));
    }
  }

  /** Used by the plugin: the hub logs through Fastify's logger unless given its own. */
  useLogger(log: HubLogger): void {
    if (!this.logGiven) this.log = log;
  }

  get isClosing(): boolean {
    return this.closing;
  }

  get connectionCount(): number {
    return this.live.size;
  }

  // ---- Server-side sending ----

  private backplane: HubBackplane | undefined;
  private unreceive: (() => void) | undefined;

  /**
   * Runs this hub as one replica of several (docs/hub.md "Backplane"): sends to all, groups and
   * connection IDs reach the matching connections of every replica, each group's events in the
   * one order the backplane gives them. `where` stays on this replica (a test function does not
   * travel).
   */
  useBackplane(backplane: HubBackplane): void {
    this.unreceive?.();
    this.backplane = backplane;
    this.unreceive = backplane.receive((audience, frame) => this.deliver(this.select(audience), frame));
    for (const group of this.groupMembers.keys()) backplane.interest(group, true);
  }

  private select(audience: Audience): Iterable<HubConnection<P>> {
    if ('all' in audience) return this.live;
    if ('connection' in audience) {
      const c = this.byId.get(audience.connection);
      return c ? [c] : [];
    }
    if (audience.groups.length === 1) return this.groupMembers.get(audience.groups[0]) ?? [];
    const union = new Set<HubConnection<P>>();
    for (const g of audience.groups) for (const c of this.groupMembers.get(g) ?? []) union.add(c);
    return union;
  }

  private deliver(selected: Iterable<HubConnection<P>>, text: string): number {
    const askedAt = this.fanoutProbe ? preciseNow() : 0;
    const targets: HubConnection<P>[] = [];
    for (const connection of selected) {
      if (connection.state !== 'handshaken') continue;
      targets.push(connection);
      connection.owed++;
    }
    if (targets.length === 0) {
      this.fanoutProbe?.({ frame: text, connections: 0, askedAt, firstWriteAt: 0, lastWriteAt: 0 });
      return 0;
    }
    // Serialised and encoded once for the whole fan-out.
    const encoded = Buffer.from(text);
    this.fanouts.push({ targets, next: 0, text, bytes: encoded.length, encoded, frame: undefined, askedAt, firstWriteAt: 0 });
    // Nothing ahead of it: its first slice goes out now (a small send entirely). Behind
    // another, it waits its turn, so no connection gets it before the earlier one.
    if (this.fanouts.length === 1) this.writeFanouts();
    return targets.length;
  }

  /**
   * Writes one slice of connections, oldest send first, and leaves the rest for after the
   * I/O that waits meanwhile (setImmediate): the writes are the kernel's (a syscall each), so
   * 5,000 of them held the event loop 60 ms on a quiet 2-core host (docs/hub.md).
   */
  private readonly writeFanouts = (): void => {
    this.fanoutScheduled = false;
    const probe = this.fanoutProbe;
    let budget = this.fanoutSlice;
    while (budget > 0 && this.fanouts.length > 0) {
      const f = this.fanouts[0]!;
      const end = Math.min(f.targets.length, f.next + budget);
      const written = this.writeDirect(f, end);
      if (probe && f.next === 0 && written) f.firstWriteAt = preciseNow();
      for (let i = f.next; i < end; i++) {
        const connection = f.targets[i]!;
        const k = written ? this.directIndex[i - f.next]! : -1;
        // Closed since the send: nothing more goes to it (its Close frame was its last). A frame
        // written directly is completed all the same, so its socket never carries half a frame.
        if (k >= 0 || connection.state === 'handshaken') {
          try {
            if (k >= 0) connection.sendOwed(f.text, f.bytes, f.encoded, f.frame, written![k]!);
            else connection.sendOwed(f.text, f.bytes, f.encoded);
          } catch (err) {
            // One connection's failure must not stall every later send queued behind this one.
            this.log.error({ err, connectionId: connection.id }, 'hub send failed');
          }
        }
        if (probe && i === 0 && !written) f.firstWriteAt = preciseNow();
      }
      budget -= end - f.next;
      f.next = end;
      if (end < f.targets.length) break;
      this.fanouts.shift();
      probe?.({ frame: f.text, connections: f.targets.length, askedAt: f.askedAt, firstWriteAt: f.firstWriteAt, lastWriteAt: preciseNow() });
    }
    if (this.fanouts.length > 0 && !this.fanoutScheduled) {
      this.fanoutScheduled = true;
      setImmediate(this.writeFanouts);
    }
  };

  /**
   * Writes the frame of f to the connections of the slice [f.next, end) that can take it
   * directly, all at once on the writer's threads; returns the bytes each took (indexed by
   * directIndex), or undefined when none was written so. Nothing else runs meanwhile, so the
   * caller then queues, in each connection's turn, whatever a socket did not take.
   */
  private writeDirect(f: Fanout<HubConnection<P>>, end: number): Int32Array | undefined {
    const writer = this.directWriter;
    if (!writer) return undefined;
    const fds = this.directFds;
    const index = this.directIndex;
    fds.length = 0;
    index.length = 0;
    for (let i = f.next; i < end; i++) {
      const fd = f.targets[i]!.directFd(f.bytes);
      index.push(fd >= 0 ? fds.push(fd) - 1 : -1);
    }
    if (fds.length === 0) return undefined;
    f.frame ??= textFrame(f.encoded);
    return writer.writeAll(fds, f.frame);
  }

  private proxy(audience: Audience | undefined, select: () => Iterable<HubConnection<P>>): ClientProxy<E> {
    return {
      send: (event, ...args) => {
        const text = invocationFrame(event, args);
        const backplane = this.backplane;
        if (!backplane || audience === undefined) return this.deliver(select(), text);
        // Delivered here when it comes back from the backplane (one order on every replica),
        // or at once when the backplane is away. The count is this replica's, now.
        const here = [...select()].filter((c) => c.state === 'handshaken').length;
        // Handed over in send order (the backplane keeps it: one connection, one pipeline).
        backplane
          .publish(audience, text)
          .then(
            (taken) => taken || this.deliver(this.select(audience), text),
            () => this.deliver(this.select(audience), text),
          );
        return here;
      },
    };
  }

  readonly clients = {
    all: this.proxy({ all: true }, () => this.live),
    group: (group: string) => this.proxy({ groups: [group] }, () => this.groupMembers.get(group) ?? []),
    groups: (groups: readonly string[]) => this.proxy({ groups: [...groups] }, () => this.select({ groups: [...groups] })),
    connection: (connectionId: string) => this.proxy({ connection: connectionId }, () => this.select({ connection: connectionId })),
    /** Connections whose principal (or id) passes the test, e.g. one account's users. This replica's only. */
    where: (test: (principal: P, connectionId: string) => boolean) =>
      this.proxy(undefined, () => [...this.live].filter((c) => test(c.principal, c.id))),
  };

  // ---- Groups ----

  readonly groups = {
    /** Returns false when no open connection has that ID. */
    add: (connectionId: string, group: string): boolean => {
      const c = this.byId.get(connectionId);
      if (!c || c.state === 'closed') return false;
      this.join(c, group);
      return true;
    },
    remove: (connectionId: string, group: string): boolean => {
      const c = this.byId.get(connectionId);
      if (!c) return false;
      this.leave(c, group);
      return true;
    },
    size: (group: string): number => this.groupMembers.get(group)?.size ?? 0,
    /**
     * Whether a send to the group may reach anyone: members here, or a backplane (another
     * replica's members are not counted here). Lets a sender skip work no one would see.
     */
    mayHaveMembers: (group: string): boolean => this.backplane !== undefined || (this.groupMembers.get(group)?.size ?? 0) > 0,
    /** The groups an open connection is in (none for an unknown or closed one). */
    of: (connectionId: string): string[] => {
      const c = this.byId.get(connectionId);
      return c && !c.isClosed ? [...c.groups] : [];
    },
  };

  private join(c: HubConnection<P>, group: string): void {
    c.groups.add(group);
    let members = this.groupMembers.get(group);
    if (!members) {
      this.groupMembers.set(group, (members = new Set()));
      this.backplane?.interest(group, true);
    }
    members.add(c);
  }

  private leave(c: HubConnection<P>, group: string): void {
    c.groups.delete(group);
    const members = this.groupMembers.get(group);
    if (!members) return;
    members.delete(c);
    if (members.size === 0) {
      this.groupMembers.delete(group);
      this.backplane?.interest(group, false);
    }
  }

  // ---- Connections (used by the plugin) ----

  /**
   * Negotiate: a connection waiting for its transport, owned by `ownerKey` (the plugin's
   * ownerKey of the principal that negotiated). Version 0 clients use the ID as token.
   */
  negotiate(principal: P, negotiateVersion: number, ownerKey: string): HubConnection<P> {
    const id = randomUUID();
    const token = negotiateVersion >= 1 ? randomBytes(18).toString('base64url') : id;
    const connection = new HubConnection<P>(id, token, principal, ownerKey, this);
    this.byToken.set(token, connection);
    this.byId.set(id, connection);
    this.startTicker();
    return connection;
  }

  /**
   * The connection with that token, if `ownerKey` owns it. A token someone else holds (read
   * from a log, a proxy, a shared screen) finds nothing: to its holder there is no such
   * connection, and the owner's connection is not touched.
   */
  connectionOf(token: string, ownerKey: string): HubConnection<P> | undefined {
    const c = this.byToken.get(token);
    return c && sameOwner(c.ownerKey, ownerKey) ? c : undefined;
  }

  /** The last frames (the Close) of a closed long-polling connection, for its owner only. */
  drainingPoll(token: string, ownerKey: string): LongPollingTransport | undefined {
    const d = this.draining.get(token);
    return d && sameOwner(d.ownerKey, ownerKey) ? d.transport : undefined;
  }

  attachWebSocket(connection: HubConnection<P>, socket: WebSocket, principal: P): void {
    this.sockets.add(socket);
    connection.attach(new WebSocketTransport(socket, this.limits.maxBufferedBytes), principal);
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.from(data).toString('utf8');
      connection.receive(text);
    });
    socket.on('error', (err) => {
      // Oversized or malformed frames: ws closes the socket itself (1009 / 1002).
      this.log.info({ connectionId: connection.id, reason: err.message }, 'hub websocket error');
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      connection.transportClosed();
    });
  }

  attachLongPolling(connection: HubConnection<P>, principal: P): LongPollingTransport {
    const token = connection.token;
    const transport = new LongPollingTransport(this.limits.maxBufferedBytes, this.limits.pollTimeoutMs, () => {
      this.draining.delete(token);
    });
    connection.attach(transport, principal);
    return transport;
  }

  // ---- ConnectionHost ----

  private contextFor(c: HubConnection<P>): HubCallContext<P> {
    let ctx = this.contexts.get(c);
    if (!ctx) {
      ctx = {
        connectionId: c.id,
        // Read at each use: currentPrincipal may have replaced it since the connection opened.
        get principal() {
          return c.principal;
        },
        transport: c.transport!.name,
        groups: {
          join: (group) => {
            if (c.state !== 'closed') this.join(c, group);
          },
          leave: (group) => this.leave(c, group),
          has: (group) => c.groups.has(group),
          list: () => [...c.groups],
        },
        log: this.log,
      };
      this.contexts.set(c, ctx);
    }
    return ctx;
  }

  handshaken(c: HubConnection<P>): void {
    this.live.add(c);
    const hook = this.definition.onConnected;
    if (!hook) return;
    Promise.resolve()
      .then(() => hook(this.contextFor(c)))
      .catch((err: unknown) => {
        this.log.error({ err, connectionId: c.id }, 'hub onConnected failed');
        c.close('An unexpected error occurred while connecting.');
      });
  }

  closed(c: HubConnection<P>, error: string | undefined): void {
    const wasLive = this.live.delete(c);
    this.byToken.delete(c.token);
    this.byId.delete(c.id);
    for (const group of [...c.groups]) this.leave(c, group);
    const transport = c.transport;
    if (transport instanceof LongPollingTransport) {
      // The Close frame may still wait for the client's next poll.
      transport.end();
      if (transport.hasUndelivered) {
        this.draining.set(c.token, { transport, ownerKey: c.ownerKey });
        setTimeout(() => this.draining.delete(c.token), this.limits.handshakeTimeoutMs).unref();
      }
    } else {
      transport?.end(error === undefined ? 'normal' : 'error');
    }
    if (this.byToken.size === 0) this.stopTicker();
    const hook = this.definition.onDisconnected;
    if (wasLive && hook) {
      Promise.resolve()
        .then(() => hook(this.contextFor(c), error))
        .catch((err: unknown) => this.log.error({ err, connectionId: c.id }, 'hub onDisconnected failed'));
    }
  }

  async invoke(c: HubConnection<P>, message: InvocationMessage): Promise<void> {
    const { invocationId, target } = message;
    const fail = (text: string) => {
      if (invocationId !== undefined) c.send(completionErrorFrame(invocationId, text));
      else this.log.debug({ connectionId: c.id, target, reason: text }, 'hub non-blocking invocation failed');
    };
    if (message.type === MessageType.StreamInvocation) {
      return fail(`Hub method '${target}' is not a streaming method; call it with invoke, not stream.`);
    }
    if (message.streamIds && message.streamIds.length > 0) {
      return fail(`Hub method '${target}' does not take stream arguments.`);
    }
    const method = Object.hasOwn(this.definition.methods, target) ? this.definition.methods[target] : undefined;
    const validate = this.validators.get(target);
    if (!method || !validate) return fail(`Unknown hub method '${target}'.`);
    try {
      if (this.definition.currentPrincipal) {
        const current = await this.definition.currentPrincipal(c.principal);
        if (c.isClosed) return;
        if (current === null) {
          fail(SignedOutText);
          c.close(`Connection closed: ${SignedOutText}`);
          return;
        }
        c.principal = current;
      }
      // Who may call comes before what they sent, as for REST routes.
      this.definition.authorize?.(c.principal, method, target);
      const wrong = validate(message.arguments);
      if (wrong !== undefined) return fail(wrong);
      const result = await method.handler(this.contextFor(c), ...message.arguments);
      if (invocationId !== undefined) c.send(completionResultFrame(invocationId, result));
    } catch (err) {
      const text = this.publicMessage(err);
      if (text !== undefined) return fail(text);
      this.log.error({ err, connectionId: c.id, target }, 'hub method failed');
      fail(`An unexpected error occurred invoking '${target}' on the server.`);
    }
  }

  /**
   * Closes every connection whose principal passes the test (a user signed out, lost a
   * right...); `allowReconnect` lets the client connect again at once with what it has now.
   * Returns how many were closed.
   */
  closeWhere(test: (principal: P, connectionId: string) => boolean, error: string, allowReconnect = false): number {
    let count = 0;
    for (const c of [...this.byToken.values()]) {
      if (c.isClosed || !test(c.principal, c.id)) continue;
      c.close(error, allowReconnect);
      count++;
    }
    return count;
  }

  /** The principals of the open connections (for re-checking them after a change). */
  principals(): { connectionId: string; principal: P }[] {
    return [...this.byToken.values()].filter((c) => !c.isClosed).map((c) => ({ connectionId: c.id, principal: c.principal }));
  }

  // ---- Timers and shutdown ----

  private startTicker(): void {
    if (this.ticker) return;
    const l = this.limits;
    const every = Math.max(10, Math.min(1000, l.keepAliveIntervalMs / 2, l.clientTimeoutMs / 3, l.handshakeTimeoutMs / 3));
    this.ticker = setInterval(() => {
      const now = Date.now();
      for (const c of [...this.byToken.values()]) c.tick(now);
    }, every);
    this.ticker.unref();
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  /**
   * Graceful shutdown: every connection gets a Close frame that allows reconnecting, polls
   * are answered, sockets close (cut after a short grace). Resolves when all sockets closed.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const socketsClosed = [...this.sockets].map(
      (s) => new Promise<void>((resolve) => (s.readyState === s.CLOSED ? resolve() : s.once('close', () => resolve()))),
    );
    for (const c of [...this.byToken.values()]) c.close('The server is shutting down.', true);
    this.fanouts.length = 0; // every connection is closed: nothing left to write
    for (const d of this.draining.values()) d.transport.end();
    this.stopTicker();
    this.unreceive?.();
    await Promise.all(socketsClosed);
  }
}

/** Creates a hub from its definition; mount it with the hub plugin. */
export function createHub<P, E extends EventMap = Record<string, unknown[]>>(
  definition: HubDefinition<P>,
  options?: HubOptions,
): Hub<P, E> {
  return new Hub<P, E>(definition, options);
}
