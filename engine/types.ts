// Public types of the trace engine (spec 2, engine settings). The agent runtime and the
// server build on these; the engine itself knows nothing of either.
import type { LatencyCode } from './latency-codes.js';

/** Spec 2 GenericPacketType: ICMP 0, UDP 1, TCP 2. */
export type PacketType = 'ICMP' | 'UDP' | 'TCP';
export const GenericPacketType = { ICMP: 0, UDP: 1, TCP: 2, Unsupported: 3 } as const;

export interface TraceOptions {
  /** IP address or DNS name. A name is resolved at start (see reResolve()). */
  target: string;
  /** Address family for a DNS name target; an IP target decides it itself. Default: whatever resolves first. */
  family?: 4 | 6;
  packetType?: PacketType;
  /** TCP destination port, 1-65535 (presets 80, 53, 21, 443). Default 80. */
  tcpPort?: number;
  /** UDP destination ports: the trace uses one port of [begin, end], fixed for its lifetime. Default 33434..33534. */
  udpBeginPort?: number;
  udpEndPort?: number;
  /** Size of the probe as an IPv4 datagram in bytes (IPv6 probes carry the same payload). Default 56, 40 for TCP. */
  packetSize?: number;
  /** Per-probe timeout in ms. Default 3000. */
  timeoutMs?: number;
  /** Delay between the probes of successive TTLs within a round, ms. Default 0 (all at once). */
  interHopDelayMs?: number;
  /** Seconds between rounds (spec: TraceInterval, default 2.5). */
  intervalSeconds?: number;
  firstTtl?: number;
  /** Default 30. */
  maxTtl?: number;
  /** Probe only the final hop; other hops report NotParticipating. */
  finalHopOnly?: boolean;
  /** Clear the IPv4 don't-fragment bit. Default false (DF set). */
  allowFragmentation?: boolean;
  /** Network interface to send from (name as in `ip link`). Default: the routing table decides. */
  sourceInterface?: string | null;
  /** DSCP (0-63) set on the probes: IPv4 type of service, IPv6 traffic class (ECN bits 0). Default 0. */
  dscp?: number;
  /** Look up names of hop addresses (cached; never delays a round). Default true. */
  reverseDns?: boolean;
  /**
   * Name who each hop address belongs to (AS number and name, country; private and special
   * addresses as such) from the offline databases npm ships (engine/trace/hop-owners.ts). Never
   * delays a round: public addresses get an owner once the databases loaded. Default true.
   */
  hopOwners?: boolean;
  /** Replace the reverse lookup (tests, or a resolver of the caller's choice). */
  reverseLookup?: (address: string) => Promise<string | null>;
  /** Replace the forward lookup of a DNS-name target. */
  resolveName?: (name: string, family: 4 | 6 | undefined) => Promise<string>;
  /**
   * Wall ms of the newest round an earlier trace of the same session emitted (a trace started
   * again): this trace's rounds and markers all come after it, never in its millisecond.
   */
  startAfter?: number;
}

/** What answered a hop's probe. */
export type HopReply = 'timeExceeded' | 'echoReply' | 'tcpReply' | 'unreachable' | 'timeout' | 'notParticipating' | 'stopStart';

export interface TraceHop {
  ttl: number;
  /** Responding address (canonical text), or null for a timeout / hop not probed. */
  address: string | null;
  /** Reverse DNS name if already known (lookups never delay a round), else null. */
  name: string | null;
  /** Round-trip time in float milliseconds, or a LatencyCode (below SpecialLatencyBase). */
  rtt: number | LatencyCode;
  reply: HopReply;
  /** The MPLS label stack the hop reported with its answer (RFC 4884/4950), top first; absent when none. */
  mpls?: MplsLabel[];
  /** Who the address belongs to (hopOwners option), once known; absent for timeouts. */
  owner?: HopOwner;
  /**
   * The DSCP of our probe as this hop quoted it back (time exceeded, unreachable): present when the
   * trace sets a DSCP, or when the quote differs from what was sent (a path that rewrites DSCP).
   */
  quotedDscp?: number;
  /** UDP probes over IPv4: the hop quoted our probe with another UDP checksum, so a device before it translated the probe (NAT). */
  natDetected?: boolean;
}

/** Who a hop address belongs to, from offline databases (no lookup leaves the machine). */
export interface HopOwner {
  /** Autonomous system number, null when the address is special or not in the database. */
  asn: number | null;
  asName: string | null;
  /** ISO 3166 alpha-2 country code of the address, null when unknown. */
  country: string | null;
  /** 'Private', 'Loopback', 'Documentation'...: an address no AS announces; null for a public one. */
  special: string | null;
}

/** One entry of an MPLS label stack (RFC 4950). */
export interface MplsLabel {
  /** 20-bit label value. */
  label: number;
  /** Experimental bits (traffic class), 0-7. */
  exp: number;
  bottomOfStack: boolean;
  /** The label's TTL. */
  ttl: number;
}

export interface TraceRound {
  /** Wall-clock time (ms since epoch) the round started. */
  time: number;
  /** Round number within the trace, from 0. */
  index: number;
  /** Target address probed in this round. */
  target: string;
  /** The destination answered (at the last hop). */
  reachedTarget: boolean;
  /** Hops from firstTtl to the end of the path. */
  hops: TraceHop[];
  /**
   * Set on the marker rounds emitted at stop/pause ('stop') and resume ('start'): every hop carries LatencyCode.StopStart.
   * A trace's rounds, markers included, have times of their own, rising in the order emitted,
   * except a round in flight at a pause, which ends after the pause's marker (still a time of its own).
   */
  marker?: 'stop' | 'start';
}

export interface RouteChange {
  time: number;
  ttl: number;
  previous: string;
  current: string;
}

export interface TraceEvents {
  round: (round: TraceRound) => void;
  routeChange: (change: RouteChange) => void;
  /** The target name resolved to a different address. */
  targetResolved: (address: string, previous: string | null) => void;
  /** The trace cannot go on (it is stopped): e.g. EngineError NoRawSocketPermission. */
  error: (error: Error) => void;
}

export interface TraceHandle {
  readonly options: Readonly<ResolvedTraceOptions>;
  /** Current target address (null until resolved). */
  readonly address: string | null;
  readonly state: 'starting' | 'running' | 'paused' | 'stopped';
  on<E extends keyof TraceEvents>(event: E, listener: TraceEvents[E]): this;
  off<E extends keyof TraceEvents>(event: E, listener: TraceEvents[E]): this;
  once<E extends keyof TraceEvents>(event: E, listener: TraceEvents[E]): this;
  pause(): void;
  resume(): void;
  setInterval(seconds: number): void;
  /** Resolve a DNS-name target again (dynamic DNS); resolves to the address in use. */
  reResolve(): Promise<string>;
  /**
   * The TTLs whose newest probe has neither answered nor timed out (its round is still in
   * flight): a reader shows them as LatencyCode.Pending, not as loss. [] when none (or stopped).
   */
  waitingTtls(): Promise<number[]>;
  /** Switch final-hop-only on or off from the next round. */
  setFinalHopOnly(on: boolean): void;
  stop(): Promise<void>;
}

export type ResolvedTraceOptions = Required<Omit<TraceOptions, 'family' | 'reverseLookup' | 'resolveName' | 'sourceInterface' | 'startAfter'>> & {
  family: 4 | 6 | undefined;
  sourceInterface: string | null;
};
