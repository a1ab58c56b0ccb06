// Defaults and validation of TraceOptions (spec 2 engine settings).
import { minimumPacketSize } from '../codec/probe-packet.js';
import { EngineError } from '../errors.js';
import type { ResolvedTraceOptions, TraceOptions } from '../types.js';

export const DEFAULT_INTERVAL_SECONDS = 2.5;
export const DEFAULT_TIMEOUT_MS = 2000;
export const DEFAULT_TCP_PORT = 80;
export const DEFAULT_UDP_BEGIN_PORT = 33434;
export const DEFAULT_UDP_END_PORT = 33534;
export const DEFAULT_PACKET_SIZE = 56;
export const DEFAULT_TCP_PACKET_SIZE = 40;
export const DEFAULT_MAX_TTL = 30;
const MAX_PACKET_SIZE = 65000;

function bad(message: string): never {
  throw new EngineError('BadOptions', message);
}

function int(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) bad(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

export function resolveTraceOptions(o: TraceOptions): ResolvedTraceOptions {
  if (typeof o.target !== 'string' || o.target.trim() === '') bad('target must be an IP address or a DNS name');
  const packetType = o.packetType ?? 'ICMP';
  if (!['ICMP', 'UDP', 'TCP'].includes(packetType)) bad('packetType must be ICMP, UDP or TCP');
  const protocol = packetType === 'TCP' ? 'tcp' : packetType === 'UDP' ? 'udp' : 'icmp';
  const packetSize = o.packetSize ?? (packetType === 'TCP' ? DEFAULT_TCP_PACKET_SIZE : DEFAULT_PACKET_SIZE);
  const firstTtl = int(o.firstTtl ?? 1, 'firstTtl', 1, 255);
  const maxTtl = int(o.maxTtl ?? DEFAULT_MAX_TTL, 'maxTtl', 1, 255);
  if (maxTtl < firstTtl) bad('maxTtl must not be below firstTtl');
  const udpBeginPort = int(o.udpBeginPort ?? DEFAULT_UDP_BEGIN_PORT, 'udpBeginPort', 1, 65535);
  const udpEndPort = int(o.udpEndPort ?? Math.max(udpBeginPort, Math.min(65535, DEFAULT_UDP_END_PORT)), 'udpEndPort', 1, 65535);
  if (udpEndPort < udpBeginPort) bad('udpEndPort must not be below udpBeginPort');
  const intervalSeconds = o.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS;
  if (!(intervalSeconds > 0 && intervalSeconds <= 86400)) bad('intervalSeconds must be above 0 and at most 86400');
  if (o.family !== undefined && o.family !== 4 && o.family !== 6) bad('family must be 4 or 6');
  return {
    target: o.target.trim(),
    family: o.family,
    packetType,
    tcpPort: int(o.tcpPort ?? DEFAULT_TCP_PORT, 'tcpPort', 1, 65535),
    udpBeginPort,
    udpEndPort,
    packetSize: int(packetSize, 'packetSize', minimumPacketSize(protocol), MAX_PACKET_SIZE),
    timeoutMs: int(o.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs', 1, 60000),
    interHopDelayMs: int(o.interHopDelayMs ?? 0, 'interHopDelayMs', 0, 10000),
    intervalSeconds,
    firstTtl,
    maxTtl,
    finalHopOnly: o.finalHopOnly ?? false,
    allowFragmentation: o.allowFragmentation ?? false,
    sourceInterface: o.sourceInterface ?? null,
    reverseDns: o.reverseDns ?? true,
    hopOwners: o.hopOwners ?? true,
    dscp: int(o.dscp ?? 0, 'dscp', 0, 63),
  };
}

export function probeProtocol(packetType: ResolvedTraceOptions['packetType']): 'icmp' | 'udp' | 'tcp' {
  return packetType === 'TCP' ? 'tcp' : packetType === 'UDP' ? 'udp' : 'icmp';
}

/** The destination port of a trace: constant for its lifetime (Paris), chosen in the UDP range by flow id. */
export function destinationPort(o: ResolvedTraceOptions, flowId: number): number {
  if (o.packetType === 'TCP') return o.tcpPort;
  if (o.packetType === 'UDP') return o.udpBeginPort + (flowId % (o.udpEndPort - o.udpBeginPort + 1));
  return 0;
}
