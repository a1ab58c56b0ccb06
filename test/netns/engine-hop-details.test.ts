// Issue 16 on real sockets and Linux routers: the DSCP we set leaves on the wire and comes back
// in every router's quote (IPv4 and IPv6), and a router that rewrites it shows where. UDP probes
// through a masquerading Linux router (nftables source NAT) match every reply and carry no NAT
// mark: Linux translates the ICMP errors back, quoted header and checksum included, so there is
// nothing to see; NAT detection is for devices that leave the quote translated (simulated in
// test/sim/hop-details.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds } from './rounds.js';

const { startTrace, shutdownEngine } = engine;

describe.skipIf(!asRoot)('DSCP and NAT on a netns chain', () => {
  let topo: Topology;

  beforeAll(() => {
    topo = buildTopology({ id: 179, routers: 3 });
  });

  afterAll(async () => {
    topo?.destroy();
    await shutdownEngine();
  });

  async function udpRounds(family: 4 | 6, dscp: number): Promise<TraceRound[]> {
    const h = startTrace({ target: family === 4 ? topo.target.v4 : topo.target.v6, packetType: 'UDP', dscp, intervalSeconds: 0.1, timeoutMs: 500, reverseDns: false });
    try {
      return await collectRounds(h, 3);
    } finally {
      await h.stop();
    }
  }

  it('DSCP 46 set on the probes comes back in every quote, IPv4 and IPv6', async () => {
    for (const family of [4, 6] as const) {
      for (const r of await udpRounds(family, 46)) expect(r.hops.map((x) => x.quotedDscp), `IPv${family}`).toEqual([46, 46, 46, 46]);
    }
  });

  it('after a router that clears the DSCP, the later hops quote 0', async () => {
    topo.exec(2, ['nft', 'add', 'table', 'inet', 'hwdscp']);
    topo.exec(2, ['nft', 'add', 'chain', 'inet', 'hwdscp', 'fw', '{ type filter hook forward priority 0 ; }']);
    topo.exec(2, ['nft', 'add', 'rule', 'inet', 'hwdscp', 'fw', 'ip', 'dscp', 'set', 'cs0']);
    topo.exec(2, ['nft', 'add', 'rule', 'inet', 'hwdscp', 'fw', 'ip6', 'dscp', 'set', 'cs0']);
    try {
      for (const family of [4, 6] as const) {
        for (const r of await udpRounds(family, 46)) expect(r.hops.map((x) => x.quotedDscp), `IPv${family}`).toEqual([46, 46, 0, 0]);
      }
    } finally {
      topo.exec(2, ['nft', 'delete', 'table', 'inet', 'hwdscp']);
    }
  });

  it('UDP probes through a masquerading Linux router match every reply, with no false NAT mark', async () => {
    topo.exec(1, ['nft', 'add', 'table', 'ip', 'hwnat']);
    topo.exec(1, ['nft', 'add', 'chain', 'ip', 'hwnat', 'post', '{ type nat hook postrouting priority 100 ; }']);
    topo.exec(1, ['nft', 'add', 'rule', 'ip', 'hwnat', 'post', 'oifname', 'hw179x1a', 'masquerade']);
    try {
      const rounds = await udpRounds(4, 0);
      for (const r of rounds) {
        expect(r.hops.map((x) => x.address)).toEqual([1, 2, 3, 4].map((k) => topo.hop(k).v4));
        expect(r.reachedTarget).toBe(true);
        expect(r.hops.some((x) => x.natDetected)).toBe(false);
      }
    } finally {
      topo.exec(1, ['nft', 'delete', 'table', 'ip', 'hwnat']);
    }
  });
});
