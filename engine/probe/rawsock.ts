// Typed loader of the rawsock addon (engine/native/rawsock.c, built into dist/engine/native).
import { createRequire } from 'node:module';

export type RawSocketHandle = { readonly __rawSocket: unique symbol };
export type TickerHandle = { readonly __ticker: unique symbol };
export type FlowHandle = { readonly __flow: unique symbol };

/**
 * Native rounds as the addon reports them (see "Flat" in rawsock.c): each round is reported
 * once when it started (done 0, no probes) and once when it ended (done 1, with probes), as
 * flat numbers rather than an object per round (no garbage per round on the probe thread).
 * - head: NATIVE_HEAD_FIELDS numbers per round: the flow's id (flowOpen), serial (per flow,
 *   counts the rounds started), start (wall ms), the flowConfigure id its probes were written
 *   with, probe count, done (0/1), and the index of its first probe in probes (-1: none);
 * - probes: NATIVE_PROBE_FIELDS numbers per probe: ttl, state (0 not sent, 1 pending / timed
 *   out, 2 send error, 3 answered), rtt ms, receive socket protocol, and for a simple reply (one
 *   the codecs would read nothing more from: no possible ICMP extension, no NAT mark, no quoted
 *   DSCP to report) its kind (1 echo reply, 2 time exceeded, 3 unreachable, 4 TCP), ICMP type
 *   and code; 0 as kind: its bytes are in replies;
 * - addresses: 16 bytes per probe, the sender of its reply (IPv4: the first 4);
 * - replies: by probe index, for an answered probe that is not simple: the reply datagram
 *   followed by its sender's 16 address bytes.
 * The ArrayBuffers of a delivery are reused by the next one (read them during the call only).
 */
export type NativeReport = [
  rounds: number,
  head: ArrayBuffer | undefined,
  probes: ArrayBuffer | undefined,
  addresses: ArrayBuffer | undefined,
  replies: (Buffer | undefined)[] | undefined,
];

/** Numbers per round in a native report's head (HEAD_FIELDS in rawsock.c). */
export const NATIVE_HEAD_FIELDS = 7;

export interface RawSockAddon {
  /** Throws an Error with code 'EPERM' without CAP_NET_RAW. */
  open(family: 4 | 6, protocol: number): RawSocketHandle;
  setOption(sock: RawSocketHandle, level: number, option: number, value: number | Buffer): void;
  /**
   * The MTU toward address as the kernel's routing has it (a connected UDP socket, IP_MTU or
   * IPV6_MTU; nothing is sent), through `sourceInterface` when given. Throws without a route.
   */
  pathMtu(family: 4 | 6, address: string, sourceInterface: string | null): number;
  /** Returns the send time in ns (CLOCK_MONOTONIC, as process.hrtime), or -errno. */
  send(sock: RawSocketHandle, buf: Buffer, length: number, address: string): number;
  /**
   * Sends `count` datagrams of `length` bytes packed back to back in buf (one sendto each);
   * times[i] = the send time of datagram i in ns (taken right before its sendto), or -errno.
   */
  sendBatch(sock: RawSocketHandle, buf: Buffer, length: number, count: number, address: string, times: Float64Array): void;
  /**
   * Polls the socket on this thread's loop and calls back once per batch of received datagrams:
   * datagram i of a batch is in buf at i * RECEIVE_SLOT_BYTES, meta[2i] its length, meta[2i+1]
   * its receive time in ns (the kernel's stamp, on CLOCK_MONOTONIC), from[16i..] the sender
   * address (IPv4: 4 bytes).
   */
  receive(sock: RawSocketHandle, buf: Buffer, meta: Float64Array, from: Buffer, cb: (count: number) => void): void;
  /** Reads (and calls back for) every datagram queued now, without waiting for the loop. */
  drain(sock: RawSocketHandle): void;
  unref(sock: RawSocketHandle): void;
  close(sock: RawSocketHandle): void;
  now(): number;
  /** Names the calling thread (seen in top -H and /proc/self/task/N/comm; at most 15 bytes). */
  setThreadName(name: string): void;
  /**
   * A timer on this thread's loop that calls `cb` directly (no Node timer lists), created
   * stopped. A closed ticker must not be used again.
   */
  ticker(cb: () => void): TickerHandle;
  /** Arms it: first call after delayMs, then every repeatMs (0: once). Re-arming replaces. */
  tickerStart(t: TickerHandle, delayMs: number, repeatMs: number): void;
  tickerStop(t: TickerHandle): void;
  tickerClose(t: TickerHandle): void;
  /** Where the reports of every native flow go: one call per delivery window (see NativeReport). */
  nativeRounds(cb: (...report: NativeReport) => void): void;
  /** A stopped native flow; `id` names it in reports (head field 0); flowId must not be in use by another. */
  flowOpen(id: number, flowId: number, windowMs: number): FlowHandle;
  /**
   * The probes of the rounds that start from now on. params: family, protocol (1 icmp, 2 udp,
   * 3 tcp), destination port, timeout ms, transport offset, IPv4 header sum, transport sum,
   * wanted ICMP checksum, TCP data bytes.
   */
  flowConfigure(f: FlowHandle, confId: number, sender: RawSocketHandle, template: Buffer, params: Float64Array, destination: string): void;
  flowTtls(f: FlowHandle, ttls: Uint8Array): void;
  /** A round now, then one every repeatMs on a grid; windowMs: its rounds' delivery window. */
  flowRun(f: FlowHandle, repeatMs: number, windowMs: number): void;
  flowStop(f: FlowHandle): void;
  /** The flow's report now (rounds started or ended since the last one; live: every round in flight with its probes). */
  flowTake(f: FlowHandle, live: boolean): NativeReport | undefined;
  flowLastStart(f: FlowHandle): number;
  flowClose(f: FlowHandle): void;
  /** The C reading of a reply (tests). */
  matchKey(family: 4 | 6, socketProtocol: number, datagram: Buffer, from: Buffer, dscp: number): {
    protocol: number; flowId: number; probeSeq: number; destinationPort: number; kind: number;
    destination: Buffer; responder: Buffer; tcpResetAcked?: number; icmpType: number; icmpCode: number;
    /** The codecs would read nothing more from it for a trace sending this DSCP. */
    simple: boolean;
  } | null;
  /** The C template writer (tests). */
  writeProbe(template: Buffer, params: Float64Array, ttl: number, probeSeq: number): Buffer;
}

/** Numbers per probe in a native round's record (PROBE_FIELDS in rawsock.c). */
export const NATIVE_PROBE_FIELDS = 7;

/** Datagrams per receive batch and the bytes each gets (BATCH and SLOT in rawsock.c). */
export const RECEIVE_BATCH = 32;
export const RECEIVE_SLOT_BYTES = 2048;

let addon: RawSockAddon | null = null;

export function rawsock(): RawSockAddon {
  addon ??= createRequire(import.meta.url)('../native/rawsock.node') as RawSockAddon;
  return addon;
}
