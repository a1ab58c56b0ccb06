// Messages between the trace sessions (main thread) and the probe worker (the one thread
// that owns the raw sockets). The worker schedules the rounds of every trace itself (one
// RoundTask is one trace round of one target, run inside the worker); the main thread sends
// TraceCommands over a MessagePort and receives batches of RoundReports.
import type { ProbeProtocol } from '../codec/probe-packet.js';
import type { ReplyKind } from '../codec/reply.js';
import type { MplsLabel } from '../codec/icmp-extensions.js';
import type { EngineErrorCode } from '../errors.js';
import type { RouteChange, TraceHop } from '../types.js';
import type { MessagePort } from 'node:worker_threads';

/**
 * One round of one trace: the trace's settings as they were when the round started (the
 * worker replaces, never edits, a trace's TraceSpec) and the TTLs of the round.
 */
export interface RoundTask {
  spec: Readonly<TraceSpec>;
  /** TTLs to probe, ascending. */
  ttls: readonly number[];
  /** Probe number of the first probe; the next ones follow (wrapping within 1..0xfffe). */
  seqStart: number;
}

export interface CheckTask {
  type: 'check';
}

/** The long-lived task that runs the traces: it ends when the main thread closes the port. */
export interface ServeTask {
  type: 'serve';
  port: MessagePort;
}

export type ProbeTask = CheckTask | ServeTask;

/** What the worker needs to run the rounds of one trace. */
export interface TraceSpec {
  family: 4 | 6;
  protocol: ProbeProtocol;
  destination: string;
  source: string;
  sourceInterface: string | null;
  flowId: number;
  destinationPort: number;
  packetSize: number;
  dontFragment: boolean;
  timeoutMs: number;
  interHopDelayMs: number;
  intervalMs: number;
  firstTtl: number;
  maxTtl: number;
  finalHopOnly: boolean;
  /** DSCP of the probes (0-63; IPv4 type of service, IPv6 traffic class). Unset: 0. */
  dscp?: number;
  /**
   * The MTU toward the destination, looked up by the worker when the trace starts and on
   * retarget (path-mtu.ts); a probe longer than this is sent as fragments. Unset: never fragment.
   */
  mtu?: number;
  /** Wall ms before which no round starts (the trace session's newest time + 1: see TraceRound.marker). */
  notBefore?: number;
}

export type TraceCommand =
  | { op: 'start'; id: number; spec: TraceSpec }
  /** The target resolved to another address: forget the path. */
  | { op: 'retarget'; id: number; family: 4 | 6; destination: string; source: string }
  | { op: 'interval'; id: number; intervalMs: number }
  | { op: 'finalHopOnly'; id: number; on: boolean }
  | { op: 'pause'; id: number }
  /** notBefore: as TraceSpec's, after the resume's marker. */
  | { op: 'resume'; id: number; notBefore?: number }
  /** Answered by 'stopped' once no round of the trace is in flight any more. */
  | { op: 'stop'; id: number }
  /** Answered by 'waiting': the TTLs whose newest probe has neither answered nor timed out. */
  | { op: 'waiting'; id: number; req: number };

export interface RoundReport {
  id: number;
  /** Wall-clock ms when the round started. */
  time: number;
  target: string;
  reachedTarget: boolean;
  hops: Omit<TraceHop, 'name'>[];
  routeChanges: Omit<RouteChange, 'time'>[];
  /** The path length after this round (for the stop/start marker rounds). */
  pathLength: number | null;
}

export type TraceMessage =
  | { op: 'rounds'; rounds: RoundReport[] }
  | { op: 'error'; id: number; code: EngineErrorCode; message: string }
  | { op: 'stopped'; id: number }
  | { op: 'waiting'; id: number; req: number; ttls: number[] };

export interface ProbeOutcome {
  ttl: number;
  /** 'timeout': sent, no answer within the timeout; 'notSent': skipped (beyond the end of the path). */
  kind: ReplyKind | 'timeout' | 'notSent' | 'sendError';
  responder: string | null;
  rttMs: number | null;
  icmpType: number;
  icmpCode: number;
  /** RFC 4950 label stack of the reply, when it carried one. */
  mpls?: MplsLabel[];
  /** UDP: the quoted checksum differs from the one sent (a translating device on the way). */
  natDetected?: boolean;
  /** The DSCP the hop quoted back; set when the trace sets one or the quote differs from what was sent. */
  quotedDscp?: number;
}

export interface TaskFailure {
  ok: false;
  code: EngineErrorCode;
  message: string;
}

export type ProbeTaskResult = TaskFailure | { ok: true };

export function probeSeqAt(seqStart: number, index: number): number {
  return ((seqStart - 1 + index) % 0xfffe) + 1;
}
