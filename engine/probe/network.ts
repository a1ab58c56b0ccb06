// The engine's network seam: everything the prober and the trace loops need from the outside
// world (send probes, receive replies in batches, a clock and timers). Two implementations:
// raw-network.ts (the raw sockets of the probe worker, what users run) and
// engine/sim/sim-network.ts (a simulated network driven by scenario files, for tests and
// demos without root). Both deliver replies as parsed ProbeReplies from the same codecs, so
// matching, timeouts, loss and path logic run unchanged on either.
import type { ProbeReply } from '../codec/reply.js';
import type { ProbeOutcome, TraceSpec } from './protocol.js';

/** receivedAtNs: the reply's receive time on the clock's monotonic ns scale. */
export type ReplyListener = (reply: ProbeReply, receivedAtNs: number) => void;

/** An opaque send socket of a network (a raw socket handle, or the simulation's token). */
export type SendSocket = object;
/** An opaque one-off timer of a clock. */
export type TimerRef = object;

/** A repeating timer, created stopped. A closed ticker must not be used again. */
export interface Ticker {
  /** Arms it: first call after delayMs, then every repeatMs (0: once). Re-arming replaces. */
  start(delayMs: number, repeatMs: number): void;
  stop(): void;
  close(): void;
}

/** The time source of the rounds: real time, or a simulation's virtual time. */
export interface ProbeClock {
  /** Wall-clock ms (round times, delivery windows). */
  wallMs(): number;
  /** Monotonic ns: the scale of send and receive times. */
  monoNs(): number;
  setTimer(cb: () => void, ms: number): TimerRef;
  clearTimer(t: TimerRef): void;
  ticker(cb: () => void): Ticker;
}

export class SendError extends Error {
  constructor(readonly errno: number) {
    super(`sendto failed (errno ${errno})`);
  }
}

/** A round of a native flow, as reported (see NativeRounds). */
export interface NativeRound {
  /** Per flow, counts the rounds started: names the round across reports. */
  serial: number;
  /** Wall ms of the round's start. */
  time: number;
  /** The destination its probes went to. */
  target: string;
  /** Set once the round ended (every probe answered or timed out); null while in flight. */
  outcomes: ProbeOutcome[] | null;
  /** With take(true), for a round in flight: its probes' outcomes so far (kinds only). */
  live?: ProbeOutcome[];
}

/**
 * A trace whose rounds the network runs itself (the raw network: in the addon, with no
 * JavaScript per round). The trace loops keep the path, the TTLs of the next rounds, the order
 * of delivery, pause and stop; rounds come back in reports, each round once when it started
 * and once when it ended, in start order per flow.
 */
export interface NativeFlow {
  /** The probes of the rounds that start from now on (start, retarget). */
  configure(spec: Readonly<TraceSpec>): void;
  /** The TTLs of the rounds that start from now on. */
  ttls(ttls: readonly number[]): void;
  /** A round now, then one every intervalMs on a grid; windowMs: how long ended rounds may wait for a report. */
  run(intervalMs: number, windowMs: number): void;
  stop(): void;
  /** What a report would carry now (live: every round in flight too, with its probes so far). */
  take(live: boolean): NativeRound[];
  /** Wall ms of the last round start. */
  lastStart(): number;
  close(): void;
}

export interface NativeRounds {
  /** Whether a trace with these settings can run natively (whole probes, sent back to back). */
  supports(spec: Readonly<TraceSpec>): boolean;
  open(id: number, spec: Readonly<TraceSpec>): NativeFlow;
  /** Where reports go: per flow (by the id given to open), its rounds in start order. */
  onReports(cb: (reports: { id: number; rounds: NativeRound[] }[]) => void): void;
}

export interface ProbeNetwork {
  readonly clock: ProbeClock;
  /** Rounds run by the network itself, when it can (the raw network); the simulated one cannot. */
  readonly native?: NativeRounds | null;
  /** Opens the receive side (raw: fails with EngineError NoRawSocketPermission without CAP_NET_RAW). */
  open(): void;
  /** Makes sure replies of this protocol are received. */
  listen(family: 4 | 6, protocol: 'icmp' | 'udp' | 'tcp'): void;
  /** The send socket of a family and source interface. */
  sender(family: 4 | 6, sourceInterface: string | null): SendSocket;
  /** Sends one datagram; returns its send time in ns; throws SendError when it could not go. */
  send(sender: SendSocket, buf: Buffer, length: number, destination: string): number;
  /**
   * Sends `count` datagrams of `length` bytes packed back to back in buf; times[i] = the send
   * time of datagram i in ns, or -errno.
   */
  sendBatch(sender: SendSocket, buf: Buffer, length: number, count: number, destination: string, times: Float64Array): void;
  /** Delivers the replies that have arrived by now (before deciding a probe timed out). */
  drain(): void;
  /** The same for the receive sockets of one family. */
  drainFamily(family: 4 | 6): void;
  close(): void;
  /** The MTU toward a destination; throws when there is no route. */
  pathMtu(family: 4 | 6, destination: string, sourceInterface: string | null): number;
}

/**
 * Makes a network that hands every reply to onReply and calls onBatchEnd after each batch of
 * replies (the prober checks rounds for completion once per batch).
 */
export type ProbeNetworkFactory = (onReply: ReplyListener, onBatchEnd: () => void) => ProbeNetwork;
