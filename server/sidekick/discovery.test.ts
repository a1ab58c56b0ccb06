import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DefaultPrivateRanges, PrivateRanges, providerEdgeOf } from './addresses.js';
import { discover } from './discovery.js';
import { defaultGatewayOf, nameserversOf, readResolver } from './machine-view.js';
import type { SidekickTargetRecord } from './repository.js';

const dir = mkdtempSync(join(tmpdir(), 'sidekick-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two default routes (metric 600 and 100) and a link route, as /proc/net/route prints them.
const routeTable = `Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
eth0\t00000000\t0182FB0A\t0003\t0\t0\t100\t00000000\t0\t0\t0
eth0\t0082FB0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
`;

describe('machine view', () => {
  it('reads the default gateway with the lowest metric from /proc/net/route', () => {
    expect(defaultGatewayOf(routeTable)).toBe('10.251.130.1');
    expect(defaultGatewayOf(routeTable.split('\n').slice(0, 1).join('\n'))).toBeUndefined();
    expect(defaultGatewayOf('')).toBeUndefined();
  });

  it('reads nameservers in order, without comments, zones or junk', () => {
    expect(nameserversOf('# generated\nsearch lan\nnameserver 10.251.130.53\nnameserver fe80::1%eth0\nnameserver not-an-ip\n')).toEqual(['10.251.130.53', 'fe80::1']);
  });

  it('prefers a resolver off the machine to a loopback stub', async () => {
    const f = join(dir, 'resolv.conf');
    writeFileSync(f, 'nameserver 127.0.0.53\nnameserver 10.251.130.53\n');
    expect(await readResolver({ routeTablePath: '', resolvConfPath: f })).toBe('10.251.130.53');
    writeFileSync(f, 'nameserver 127.0.0.53\n');
    expect(await readResolver({ routeTablePath: '', resolvConfPath: f })).toBe('127.0.0.53');
    expect(await readResolver({ routeTablePath: '', resolvConfPath: join(dir, 'missing') })).toBeUndefined();
  });
});

describe('provider edge', () => {
  const home = new PrivateRanges(DefaultPrivateRanges);
  it('is the first public hop before the target', () => {
    const hops = [{ hop: 3, ip: '203.0.113.9' }, { hop: 1, ip: '192.168.1.1' }, { hop: 2, ip: '100.64.3.1' }];
    expect(providerEdgeOf(hops, '8.8.8.8', home)).toBe('203.0.113.9');
  });
  it('is not the target itself, nor a private hop', () => {
    expect(providerEdgeOf([{ hop: 1, ip: '10.0.0.1' }, { hop: 2, ip: '8.8.8.8' }], '8.8.8.8', home)).toBeUndefined();
  });
  it('follows a configured list of private ranges (test networks)', () => {
    const test = new PrivateRanges(['10.251.130.0/26']);
    expect(test.isPublic('10.251.130.9')).toBe(false);
    expect(test.isPublic('10.251.130.66')).toBe(true);
    expect(home.isPublic('10.251.130.66')).toBe(false);
    expect(home.isPublic('fd00::1')).toBe(false);
    expect(home.isPublic('2001:db8::1')).toBe(true);
    expect(() => new PrivateRanges(['nonsense'])).toThrow(/not an address range/);
  });
});

describe('discover', () => {
  it('starts the five traces and finds the edge in the external trace', async () => {
    const rt = join(dir, 'route');
    const rc = join(dir, 'resolv');
    writeFileSync(rt, routeTable);
    writeFileSync(rc, 'nameserver 10.251.130.53\n');
    const started: string[] = [];
    const found: SidekickTargetRecord[] = [];
    let polls = 0;
    await discover({
      view: { routeTablePath: rt, resolvConfPath: rc },
      ranges: new PrivateRanges(['10.251.130.0/26']),
      externals: ['10.251.130.100', '10.251.130.101'],
      edgeWaitMs: 60_000,
      signal: new AbortController().signal,
      sleep: async () => undefined,
      startTrace: async (t) => (started.push(t), started.length),
      // The edge answers only on the third look, as a trace that is still finding its hops.
      routeOf: async () => (++polls < 3 ? [{ hop: 1, ip: '10.251.130.1' }] : [{ hop: 1, ip: '10.251.130.1' }, { hop: 2, ip: '10.251.130.66' }]),
      found: async (t) => void found.push(t),
    });
    expect(started).toEqual(['10.251.130.100', '10.251.130.101', '10.251.130.1', '10.251.130.53', '10.251.130.66']);
    expect(found.map((f) => [f.kind, f.originalTarget, f.position])).toEqual([
      ['External1', '10.251.130.100', 3],
      ['External2', '10.251.130.101', 4],
      ['DefaultGateway', '10.251.130.1', 0],
      ['DnsResolver', '10.251.130.53', 1],
      ['ProviderEdge', '10.251.130.66', 2],
    ]);
  });

  it('keeps a card with the reason for a source it cannot find or trace', async () => {
    const found: SidekickTargetRecord[] = [];
    let now = 0;
    await discover({
      view: { routeTablePath: join(dir, 'none'), resolvConfPath: join(dir, 'none') },
      ranges: new PrivateRanges(DefaultPrivateRanges),
      externals: ['192.0.2.1', ''],
      edgeWaitMs: 0,
      signal: new AbortController().signal,
      sleep: async () => void (now += 1),
      startTrace: async () => {
        throw new Error('Probing needs CAP_NET_RAW');
      },
      routeOf: async () => [],
      found: async (t) => void found.push(t),
    });
    const reasons = Object.fromEntries(found.map((f) => [f.kind, f.notFoundReason]));
    expect(found.every((f) => f.sessionId === null)).toBe(true);
    expect(reasons).toEqual({
      External1: 'Probing needs CAP_NET_RAW',
      External2: 'No external source 2 in Settings > General.',
      DefaultGateway: 'No default route in the routing table.',
      DnsResolver: 'No nameserver in resolv.conf.',
      ProviderEdge: 'No external source could be traced, so the way out is unknown.',
    });
  });
});
