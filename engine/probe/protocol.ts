// Messages between the trace sessions (main thread) and the probe worker (the one thread
// that owns the raw sockets). One RoundTask is one trace round of one target.
import type { ProbeProtocol } from '../codec/probe-packet.js';
import type { ReplyKind } from '../codec/reply.js';
import type { EngineErrorCode } from '../errors.js';

export interface RoundTask {
  type: 'round';
  family: 4 | 6;
  protocol: ProbeProtocol;
  /** Canonical destination address. */
  destination: string;
  /** Canonical source address (needed for UDP/TCP/ICMPv6 checksums). */
  source: string;
  /** Bind the send socket to this interface (SO_BINDTODEVICE), or null. */
  sourceInterface: string | null;
  flowId: number;
  destinationPort: number;
  packetSize: number;
  dontFragment: boolean;
  timeoutMs: number;
  interHopDelayMs: number;
  /** TTLs to probe, ascending. */
  ttls: number[];
  /** Probe number of the first probe; the next ones follow (wrapping within 1..0xfffe). */
  seqStart: number;
}

export interface CheckTask {
  type: 'check';
}

export type ProbeTask = RoundTask | CheckTask;

export interface ProbeOutcome {
  ttl: number;
  /** 'timeout': sent, no answer within the timeout; 'notSent': skipped (beyond the end of the path). */
  kind: ReplyKind | 'timeout' | 'notSent' | 'sendError';
  responder: string | null;
  rttMs: number | null;
  icmpType: number;
  icmpCode: number;
}

export interface RoundResult {
  ok: true;
  probes: ProbeOutcome[];
}

export interface TaskFailure {
  ok: false;
  code: EngineErrorCode;
  message: string;
}

export type ProbeTaskResult = RoundResult | TaskFailure | { ok: true; probes?: undefined };

export function probeSeqAt(seqStart: number, index: number): number {
  return ((seqStart - 1 + index) % 0xfffe) + 1;
}
