// "Hops" (RouteLength) of a target: the number of hop rows its window shows (issue 41 item 5:
// All Targets said 8 where the window showed 7). The route ends where the target's own
// address answers; deeper TTLs only come from rounds whose probe at the target's TTL was lost
// (the next TTL reaches the target again), so they are not hops of the route. A target that
// never answered: the deepest hop seen, by its hosts or its samples.
export interface RouteHost {
  hop: number;
  address: string | null;
}

/** The first hop at which the target's own address answered, if it ever did. */
export function targetHopOf(targetIp: string, hosts: readonly RouteHost[]): number | undefined {
  const hops = hosts.filter((h) => h.address && h.address === targetIp).map((h) => h.hop);
  return hops.length ? Math.min(...hops) : undefined;
}

/** `sampledHops`: the deepest TTL with samples in the range (the row statistics' hopCount). */
export function routeLength(targetIp: string, hosts: readonly RouteHost[], sampledHops: number): number {
  return targetHopOf(targetIp, hosts) ?? Math.max(0, sampledHops, ...hosts.map((h) => h.hop));
}
