// What a connection needs from its transport (WebSockets or Long Polling).
import type { TransportName } from './definition.js';

export interface Transport {
  readonly name: TransportName;
  /** Long polling keeps itself alive with polls: no Ping frames, liveness from polls. */
  readonly inherentKeepAlive: boolean;
  /**
   * Queues text for the client. Returns false (and queues nothing) when it would push the
   * client's pending outgoing bytes over the limit: the caller then drops the connection.
   * `encoded`: the same text as UTF-8, made once for a whole fan-out (a socket writes it as it
   * is instead of encoding the text again for each of thousands of connections).
   */
  send(text: string, bytes: number, encoded?: Buffer): boolean;
  /**
   * WebSockets: the socket's descriptor when a fan-out's frame of `bytes` payload bytes may be
   * written to it directly right now (open, nothing queued ahead of it, plain TCP), else -1
   * (server/hub/direct-writes.ts).
   */
  directFd?(bytes: number): number;
  /** After a direct write that took `written` (> 0) bytes of `frame`: queues the rest, if any. */
  afterDirect?(written: number, frame: Buffer): void;
  /** Frames already queued still go out (best effort), then the transport ends. */
  end(reason: 'normal' | 'error'): void;
  /** Drops frames not yet delivered, so a final Close frame fits under the limit. */
  discardPending(): void;
  /** True while the client is visibly present (a poll pending, or a socket open). */
  isActive(now: number, idleLimitMs: number): boolean;
}

/** Limits every connection of a hub lives under. */
export interface HubLimits {
  /** Largest single message (and largest POST body / unterminated record). Default 1 MiB. */
  maxMessageBytes: number;
  /** Pending outgoing bytes per connection before it is dropped. Default 4 MiB. */
  maxBufferedBytes: number;
  /** Invocations queued (waiting for the one running) per connection. Default 64. */
  maxPendingInvocations: number;
  /** Server Ping interval when nothing else was sent. Default 15 s. */
  keepAliveIntervalMs: number;
  /** Close a connection that sent nothing (WebSockets) or did not poll (Long Polling) this long. Default 30 s. */
  clientTimeoutMs: number;
  /** Time allowed between connecting and the handshake, and between negotiate and connecting. Default 15 s. */
  handshakeTimeoutMs: number;
  /** How long a poll is held open without data before answering 200 empty. Default 90 s. */
  pollTimeoutMs: number;
}

export const defaultLimits: HubLimits = {
  maxMessageBytes: 1024 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxPendingInvocations: 64,
  keepAliveIntervalMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  pollTimeoutMs: 90_000,
};
