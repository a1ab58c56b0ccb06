// Which addresses count as private (the provider edge is the first hop outside them). The
// default list is the IANA special-purpose ranges a home or office network uses; the
// HOPWATCH_SIDEKICK_PRIVATE_RANGES variable replaces it (comma-separated CIDRs), so a test
// network built of 10.251.x.y addresses can call part of itself "public" (docs/sidekick.md).
import { BlockList, isIP } from 'node:net';

export const DefaultPrivateRanges: readonly string[] = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10', // carrier-grade NAT: still the provider's private side
  '127.0.0.0/8',
  '169.254.0.0/16',
  '0.0.0.0/8',
  'fc00::/7',
  'fe80::/10',
  '::1/128',
];

export class PrivateRanges {
  private readonly list = new BlockList();

  constructor(readonly ranges: readonly string[]) {
    for (const r of ranges) {
      const [net, bits] = r.split('/');
      const family = isIP(net);
      if (!family || bits === undefined || !/^\d+$/.test(bits)) throw new Error(`"${r}" is not an address range (CIDR, e.g. 10.0.0.0/8)`);
      this.list.addSubnet(net, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** A valid address outside every private range. */
  isPublic(ip: string): boolean {
    const family = isIP(ip);
    if (!family) return false;
    return !this.list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  }
}

export interface RouteHop {
  hop: number;
  ip: string;
}

/** The provider edge: the first hop before the target whose address is public, if any answered. */
export function providerEdgeOf(hops: readonly RouteHop[], target: string, ranges: PrivateRanges): string | undefined {
  const ordered = [...hops].sort((a, b) => a.hop - b.hop);
  for (const h of ordered) {
    if (h.ip === target) return undefined;
    if (ranges.isPublic(h.ip)) return h.ip;
  }
  return undefined;
}
