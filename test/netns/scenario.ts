// A declarative test network: a chain of routers from the root namespace (where the probing
// process runs) to a target namespace. Loaded from JSON files in scenarios/ or built inline.

export interface Scenario {
  /** 1..250, unique per test file: names are hw{id}-..., addresses 10.251.{id}.x and fd00:251:{id}::/48. */
  id: number;
  /** Number of routers between the root namespace and the target. */
  routers: number;
  /** Packets arriving at router `router` from upstream are dropped with this probability (nftables numgen). */
  loss?: { router: number; percent: number }[];
  /** Routers that never send ICMP time exceeded (they still forward). */
  silent?: number[];
  /** Router 1 drops forwarded ICMP/ICMPv6 echo requests (UDP and TCP pass). */
  icmpFirewallAtHop1?: boolean;
  /** The target address is an unreachable route on the last router: it answers destination unreachable. */
  unreachableTarget?: boolean;
  /** A second router parallel to router `router`; changeRoute() moves traffic onto it. */
  alternateRouter?: number;
  /** Token bucket (tc tbf) on the downstream side of router `router`. */
  rateLimit?: { router: number; rate: string; burst: string; latency: string };
}

export function parseScenario(json: string): Scenario {
  const s = JSON.parse(json) as Scenario;
  if (!Number.isInteger(s.id) || s.id < 1 || s.id > 250) throw new Error('scenario id must be an integer 1..250');
  if (!Number.isInteger(s.routers) || s.routers < 1 || s.routers > 20) throw new Error('scenario routers must be 1..20');
  const inRange = (r: number) => Number.isInteger(r) && r >= 1 && r <= s.routers;
  for (const l of s.loss ?? []) if (!inRange(l.router) || !(l.percent >= 0 && l.percent <= 100)) throw new Error('bad loss entry');
  for (const r of s.silent ?? []) if (!inRange(r)) throw new Error('bad silent router');
  if (s.alternateRouter !== undefined && !inRange(s.alternateRouter)) throw new Error('bad alternate router');
  if (s.rateLimit && !inRange(s.rateLimit.router)) throw new Error('bad rate-limited router');
  return s;
}
