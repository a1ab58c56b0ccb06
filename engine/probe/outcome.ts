// A matched reply written into its probe's outcome: the one place both round runners (the
// JavaScript prober and the addon's native rounds) turn a parsed reply into what a round reports.
import type { ProbeReply } from '../codec/reply.js';
import type { ProbeOutcome, TraceSpec } from './protocol.js';

export function fillOutcome(outcome: ProbeOutcome, reply: ProbeReply, rttMs: number, spec: Readonly<TraceSpec>): void {
  outcome.kind = reply.kind;
  outcome.responder = reply.responder;
  outcome.rttMs = rttMs;
  outcome.icmpType = reply.icmpType;
  outcome.icmpCode = reply.icmpCode;
  if (reply.mpls) outcome.mpls = reply.mpls;
  if (reply.natDetected) outcome.natDetected = true;
  if (reply.quotedDscp !== undefined && ((spec.dscp ?? 0) !== 0 || reply.quotedDscp !== (spec.dscp ?? 0))) outcome.quotedDscp = reply.quotedDscp;
}
