// The MTU toward a trace's destination, and what it means for the trace's probes. Probes go out
// through IPPROTO_RAW sockets, which the kernel never fragments: a probe larger than the MTU
// is either fragmented by the prober (allowFragmentation) or cannot be sent at all, which is
// said once when the trace starts rather than shown as timeouts forever.
import { probeLength } from '../codec/probe-packet.js';
import { EngineError } from '../errors.js';
import type { ProbeNetwork } from './network.js';
import type { TraceSpec } from './protocol.js';
import { rawsock } from './rawsock.js';

/** The kernel's MTU toward `destination` (interface MTU, or a smaller path MTU it learned). */
export function outgoingMtu(family: 4 | 6, destination: string, sourceInterface: string | null): number {
  try {
    return rawsock().pathMtu(family, destination, sourceInterface);
  } catch (err) {
    throw new EngineError('NoRoute', `Cannot find the MTU toward ${destination}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

type SizedFields = Pick<TraceSpec, 'family' | 'protocol' | 'packetSize' | 'dontFragment' | 'destination'>;

/**
 * Why the trace's probes cannot be sent with this MTU, or null when they can: they fit, or
 * fragmentation is allowed (the prober then fragments them). Without it, an IPv4 probe has DF
 * set and an IPv6 probe is never fragmented by routers, so nothing would ever answer.
 */
export function mtuProblem(s: SizedFields, mtu: number): string | null {
  const length = probeLength(s.family, s.protocol, s.packetSize);
  if (length <= mtu || !s.dontFragment) return null;
  // packetSize counts IPv4 bytes; an IPv6 probe is 20 bytes longer.
  const largest = mtu - (s.family === 4 ? 0 : 20);
  return `packetSize ${s.packetSize} does not fit the MTU of ${mtu} bytes toward ${s.destination} ` +
    `(the IPv${s.family} probe is ${length} bytes) and fragmentation is not allowed: ` +
    `allow fragmentation or use a packetSize of at most ${largest}.`;
}

/**
 * The spec with the MTU toward its destination on this network; throws EngineError('NoRoute')
 * without a route and EngineError('BadOptions') when its probes cannot be sent.
 */
export function withPathMtu(spec: TraceSpec, network: Pick<ProbeNetwork, 'pathMtu'>): TraceSpec {
  let mtu: number;
  try {
    mtu = network.pathMtu(spec.family, spec.destination, spec.sourceInterface);
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError('NoRoute', `Cannot find the MTU toward ${spec.destination}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const problem = mtuProblem(spec, mtu);
  if (problem) throw new EngineError('BadOptions', problem);
  return { ...spec, mtu };
}
