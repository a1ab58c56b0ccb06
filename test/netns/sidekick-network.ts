// Sidekick's test network (issue 24, topology id 130): a "machine" namespace hw130-h with its
// own default route and its own resolv.conf, behind it a home gateway, a DNS resolver, the
// provider edge and two external sources. The suite runs the server inside hw130-h (so the
// routing table discovery reads is the namespace's own /proc/net/route) and reaches it through
// a management link from the root namespace; no probe ever enters the root namespace.
//
//   root 10.251.130.129/30 --mgmt-- .130 hw130-h .2 --lan-- .1 hw130-gw .49 --- .53 hw130-dns
//                                                         gw .65 --- .66 hw130-edge .73 --- .74 hw130-ext (.100, .101)
//
// 10.251.130.0/26 is the "private" side (HOPWATCH_SIDEKICK_PRIVATE_RANGES), so the edge's .66
// is the first public hop on the way to the external sources.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SidekickNetId = 130;
const p = `hw${SidekickNetId}`;
const net = (host: number) => `10.251.${SidekickNetId}.${host}`;

export const SidekickNet = {
  machineNs: `${p}-h`,
  serverAddress: net(130),
  gateway: net(1),
  resolver: net(53),
  edge: net(66),
  externals: [net(100), net(101)] as const,
  privateRanges: `${net(0)}/26`,
};

const run = (args: string[]) => execFileSync(args[0], args.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const tryRun = (args: string[]) => {
  try {
    run(args);
  } catch {
    /* already gone */
  }
};
const lockPath = `/run/hopwatch-test-netns-${SidekickNetId}.lock`;

/** One user of the id machine-wide (as test/netns/topology.ts): a live holder makes this fail. */
function lock(): void {
  try {
    const holder = Number(readFileSync(lockPath, 'utf8').trim());
    if (holder > 0 && holder !== process.pid) {
      try {
        process.kill(holder, 0);
        throw new Error(`test network ${SidekickNetId} is in use by process ${holder}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
    unlinkSync(lockPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const fd = openSync(lockPath, 'wx');
  writeFileSync(fd, String(process.pid));
  closeSync(fd);
}

const namespaces = ['h', 'gw', 'dns', 'edge', 'ext'].map((n) => `${p}-${n}`);

export function removeSidekickNet(): void {
  for (const ns of namespaces) tryRun(['ip', 'netns', 'delete', ns]);
  tryRun(['ip', 'link', 'delete', `${p}m0a`]);
}

export interface SidekickNetwork {
  /** A resolv.conf of the machine namespace (HOPWATCH_SIDEKICK_RESOLV_CONF). */
  resolvConf: string;
  /** The machine namespace's routing table as discovery reads it. */
  routeTable(): string;
  destroy(): void;
}

export function buildSidekickNet(): SidekickNetwork {
  lock();
  removeSidekickNet();
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-sidekick-net-'));
  const ipIn = (ns: string | null, args: string[]) => run(ns ? ['ip', '-n', ns, ...args] : ['ip', ...args]);
  const [h, gw, dns, edge, ext] = namespaces;
  try {
    for (const ns of namespaces) {
      run(['ip', 'netns', 'add', ns]);
      ipIn(ns, ['link', 'set', 'lo', 'up']);
      run(['ip', 'netns', 'exec', ns, 'sysctl', '-q', '-w', 'net.ipv4.ip_forward=1', 'net.ipv4.icmp_ratelimit=0', 'net.ipv4.conf.all.rp_filter=0', 'net.ipv4.conf.default.rp_filter=0']);
    }
    // A veth pair: end a (address a) in nsA, end b (address b) in nsB, both /prefix.
    const link = (name: string, nsA: string | null, a: string, nsB: string, b: string, prefix: number) => {
      run(['ip', 'link', 'add', `${name}a`, 'type', 'veth', 'peer', 'name', `${name}b`]);
      if (nsA) run(['ip', 'link', 'set', `${name}a`, 'netns', nsA]);
      run(['ip', 'link', 'set', `${name}b`, 'netns', nsB]);
      ipIn(nsA, ['addr', 'add', `${a}/${prefix}`, 'dev', `${name}a`]);
      ipIn(nsB, ['addr', 'add', `${b}/${prefix}`, 'dev', `${name}b`]);
      ipIn(nsA, ['link', 'set', `${name}a`, 'up']);
      ipIn(nsB, ['link', 'set', `${name}b`, 'up']);
    };
    link(`${p}m0`, null, net(129), h, net(130), 30); // management: root <-> machine
    link(`${p}l0`, gw, net(1), h, net(2), 29); // the LAN
    link(`${p}d0`, gw, net(49), dns, net(53), 29); // the resolver behind the gateway
    link(`${p}e0`, gw, net(65), edge, net(66), 29); // the provider's edge
    link(`${p}x0`, edge, net(73), ext, net(74), 29); // the provider's core to the internet
    for (const host of [100, 101]) ipIn(ext, ['addr', 'add', `${net(host)}/32`, 'dev', 'lo']);
    ipIn(h, ['route', 'add', 'default', 'via', net(1)]);
    ipIn(gw, ['route', 'add', 'default', 'via', net(66)]);
    ipIn(dns, ['route', 'add', 'default', 'via', net(49)]);
    ipIn(edge, ['route', 'add', `${net(0)}/26`, 'via', net(65)]);
    ipIn(edge, ['route', 'add', `${net(96)}/27`, 'via', net(74)]);
    ipIn(ext, ['route', 'add', 'default', 'via', net(73)]);
    const resolvConf = join(dir, 'resolv.conf');
    writeFileSync(resolvConf, `# hw130-h's resolver\nnameserver ${SidekickNet.resolver}\n`);
    return {
      resolvConf,
      routeTable: () => run(['ip', 'netns', 'exec', h, 'cat', '/proc/net/route']),
      destroy: () => {
        removeSidekickNet();
        rmSync(dir, { recursive: true, force: true });
        try {
          if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) unlinkSync(lockPath);
        } catch {
          /* not held */
        }
      },
    };
  } catch (err) {
    removeSidekickNet();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
