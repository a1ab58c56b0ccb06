// One hub connection: its state from negotiate to close, the record framing of what the
// client sends, the handshake, the per-connection invocation queue, and liveness.
import type { HubLogger } from './definition.js';
import {
  checkHandshake,
  closeFrame,
  handshakeResponseFrame,
  type InvocationMessage,
  MessageType,
  parseClientMessage,
  PING_FRAME,
  ProtocolError,
  RECORD_SEPARATOR,
} from './protocol.js';
import type { HubLimits, Transport } from './transport.js';

/** What a connection asks of the hub that owns it. */
export interface ConnectionHost<P> {
  readonly limits: HubLimits;
  readonly log: HubLogger;
  handshaken(connection: HubConnection<P>): void;
  /** Runs one invocation to its completion; never rejects. */
  invoke(connection: HubConnection<P>, message: InvocationMessage): Promise<void>;
  closed(connection: HubConnection<P>, error: string | undefined): void;
}

export type ConnectionState = 'negotiated' | 'connected' | 'handshaken' | 'closed';

export class HubConnection<P> {
  state: ConnectionState = 'negotiated';
  transport: Transport | undefined;
  readonly groups = new Set<string>();
  private readonly createdAt = Date.now();
  private connectedAt = 0;
  private lastReceivedAt = 0;
  private lastSentAt = 0;
  private remainder = '';
  private readonly invocations: InvocationMessage[] = [];
  private invoking = false;

  constructor(
    readonly id: string,
    readonly token: string,
    public principal: P,
    /**
     * Who negotiated the connection, as the app's owner key says (a login session, a shared
     * link...): the token alone is not enough, every transport request must come from it.
     */
    readonly ownerKey: string,
    private readonly host: ConnectionHost<P>,
  ) {}

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  attach(transport: Transport, principal: P): void {
    this.transport = transport;
    this.principal = principal;
    this.state = 'connected';
    this.connectedAt = this.lastReceivedAt = this.lastSentAt = Date.now();
  }

  /** Text from the transport: zero or more records, the last one possibly incomplete. */
  receive(text: string): void {
    if (this.state === 'closed') return;
    this.lastReceivedAt = Date.now();
    const data = this.remainder.length > 0 ? this.remainder + text : text;
    let start = 0;
    for (let end = data.indexOf(RECORD_SEPARATOR); end >= 0; end = data.indexOf(RECORD_SEPARATOR, start)) {
      const record = data.slice(start, end);
      start = end + 1;
      this.handleRecord(record);
      if (this.isClosed) return; // a record may close the connection
    }
    this.remainder = start === 0 ? data : data.slice(start);
    if (this.remainder.length > 0 && Buffer.byteLength(this.remainder) > this.host.limits.maxMessageBytes) {
      this.remainder = '';
      this.fail(`A message exceeded the limit of ${this.host.limits.maxMessageBytes} bytes.`);
    }
  }

  private handleRecord(record: string): void {
    if (this.state === 'connected') {
      const error = checkHandshake(record);
      this.send(handshakeResponseFrame(error));
      if (error !== undefined) {
        this.host.log.info({ connectionId: this.id, reason: error }, 'hub handshake refused');
        this.finish('error', error);
        return;
      }
      this.state = 'handshaken';
      this.host.handshaken(this);
      return;
    }
    let message;
    try {
      message = parseClientMessage(record);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
      this.fail(err.message);
      return;
    }
    switch (message.type) {
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
        this.enqueue(message);
        return;
      case MessageType.Close:
        this.transportClosed(message.error);
        this.transport?.end('normal');
        return;
      default:
        // Ping only refreshes liveness (done above); cancel, stream items, completions,
        // acks and sequences have nothing to act on here (see protocol.ts).
        return;
    }
  }

  private enqueue(message: InvocationMessage): void {
    if (this.invocations.length >= this.host.limits.maxPendingInvocations) {
      this.fail(`More than ${this.host.limits.maxPendingInvocations} invocations were waiting; send fewer at a time.`);
      return;
    }
    this.invocations.push(message);
    if (!this.invoking) void this.runInvocations();
  }

  // One invocation at a time per connection, in arrival order (as ASP.NET Core does by
  // default): clients rely on Register... then Unregister... being handled in that order.
  private async runInvocations(): Promise<void> {
    this.invoking = true;
    try {
      while (this.invocations.length > 0 && this.state !== 'closed') {
        await this.host.invoke(this, this.invocations.shift()!);
      }
    } finally {
      this.invoking = false;
    }
  }

  /**
   * Frames of fan-outs queued for this connection and not written yet (the hub writes a large
   * fan-out a slice at a time): a frame sent to this connection alone meanwhile waits in
   * `held` behind them, so the client gets frames in the order they were sent.
   */
  owed = 0;
  private held: [text: string, bytes: number][] = [];

  /** Queues a frame; drops the connection when its client is not reading fast enough. */
  send(text: string, bytes: number = Buffer.byteLength(text), encoded?: Buffer): void {
    if (this.owed > 0) {
      if (this.state !== 'closed') this.held.push([text, bytes]);
      return;
    }
    this.write(text, bytes, encoded);
  }

  /**
   * The descriptor a fan-out may write its frame to directly, in this connection's turn, or -1
   * (server/hub/direct-writes.ts): only when its socket has nothing queued ahead of the frame
   * (frames held behind a fan-out follow it, as ever).
   */
  directFd(bytes: number): number {
    if (this.state !== 'handshaken' || !this.transport?.directFd) return -1;
    return this.transport.directFd(bytes);
  }

  /**
   * A queued fan-out's frame, in its turn; then what was held behind it, when nothing more is
   * owed. `written`: the bytes of `frame` a direct write already put on the socket (its rest
   * is queued first; none: the frame goes as any other).
   */
  sendOwed(text: string, bytes: number, encoded: Buffer, frame?: Buffer, written = 0): void {
    this.owed--;
    if (frame && written > 0 && this.transport?.afterDirect) {
      this.transport.afterDirect(written, frame);
      this.lastSentAt = Date.now();
    } else {
      this.write(text, bytes, encoded);
    }
    if (this.owed > 0 || this.held.length === 0) return;
    const held = this.held;
    this.held = [];
    for (const [t, b] of held) this.write(t, b);
  }

  private write(text: string, bytes: number, encoded?: Buffer): void {
    const transport = this.transport;
    if (!transport || this.state === 'closed') return;
    if (transport.send(text, bytes, encoded)) {
      this.lastSentAt = Date.now();
      return;
    }
    this.host.log.warn(
      { connectionId: this.id, limitBytes: this.host.limits.maxBufferedBytes },
      'hub connection dropped: send buffer full',
    );
    transport.discardPending();
    this.close('The connection was closed because it did not read messages fast enough.', true);
  }

  /** Closes from the server side: a Close frame (after the handshake), then the transport ends. */
  close(error?: string, allowReconnect = false): void {
    if (this.state === 'closed') return;
    if (this.state === 'handshaken' && this.transport) {
      const text = closeFrame(error, allowReconnect);
      if (!this.transport.send(text, Buffer.byteLength(text))) {
        this.transport.discardPending();
        this.transport.send(text, Buffer.byteLength(text));
      }
    }
    this.finish(error === undefined ? 'normal' : 'error', error);
  }

  /** A protocol error by the client: close with the reason, no reconnect. */
  private fail(reason: string): void {
    this.host.log.info({ connectionId: this.id, reason }, 'hub connection closed for a protocol error');
    this.close(`Connection closed with an error: ${reason}`);
  }

  private finish(how: 'normal' | 'error', error: string | undefined): void {
    this.state = 'closed';
    this.invocations.length = 0;
    this.transport?.end(how);
    this.host.closed(this, error);
  }

  /** The client went away (socket closed, DELETE, Close message): nothing more to send. */
  transportClosed(error?: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.invocations.length = 0;
    this.host.closed(this, error);
  }

  /** Called about once a second by the hub: time-outs and keep-alive. */
  tick(now: number): void {
    const limits = this.host.limits;
    switch (this.state) {
      case 'negotiated':
        if (now - this.createdAt > limits.handshakeTimeoutMs) this.transportClosed('Never connected after negotiate.');
        return;
      case 'connected':
        if (now - this.connectedAt > limits.handshakeTimeoutMs) this.finish('error', 'No handshake was received in time.');
        return;
      case 'handshaken': {
        const transport = this.transport!;
        const silent = transport.inherentKeepAlive
          ? !transport.isActive(now, limits.clientTimeoutMs) && now - this.lastReceivedAt > limits.clientTimeoutMs
          : now - this.lastReceivedAt > limits.clientTimeoutMs;
        if (silent) {
          this.close('Server timeout elapsed without receiving a message from the client.', true);
          return;
        }
        if (!transport.inherentKeepAlive && now - this.lastSentAt >= limits.keepAliveIntervalMs) this.send(PING_FRAME);
        return;
      }
      case 'closed':
        return;
    }
  }
}
