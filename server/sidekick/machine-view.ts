// The machine's own view of its network, which discovery starts from: the default gateway from
// the routing table (/proc/net/route) and the DNS resolver from resolv.conf. Both paths are
// injectable (HOPWATCH_SIDEKICK_ROUTE_TABLE, HOPWATCH_SIDEKICK_RESOLV_CONF, server/config.ts) so a test points
// them at a network namespace of its own instead of the host's real configuration.
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';

export interface MachineView {
  routeTablePath: string;
  resolvConfPath: string;
}

export const DefaultMachineView: MachineView = { routeTablePath: '/proc/net/route', resolvConfPath: '/etc/resolv.conf' };
/** Where systemd-resolved keeps the real upstream servers when resolv.conf names its 127.0.0.53 stub. */
const SystemdUpstream = '/run/systemd/resolve/resolv.conf';

/** /proc/net/route keeps IPv4 addresses as little-endian hex ("0101FB0A" is 10.251.1.1). */
function hexToIPv4(hex: string): string | undefined {
  if (!/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const n = parseInt(hex, 16);
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff].join('.');
}

/** The gateway of the default route with the lowest metric, from the text of /proc/net/route. */
export function defaultGatewayOf(routeTable: string): string | undefined {
  const RTF_UP = 0x1;
  const RTF_GATEWAY = 0x2;
  let best: { gateway: string; metric: number } | undefined;
  for (const line of routeTable.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    const [, destination, gateway, flags, , , metric, mask] = f;
    const fl = parseInt(flags, 16);
    if (destination !== '00000000' || mask !== '00000000' || !(fl & RTF_UP) || !(fl & RTF_GATEWAY)) continue;
    const ip = hexToIPv4(gateway);
    if (!ip || ip === '0.0.0.0') continue;
    const m = Number(metric);
    if (!best || m < best.metric) best = { gateway: ip, metric: m };
  }
  return best?.gateway;
}

/** The nameserver lines of a resolv.conf, in order (comments and other lines skipped). */
export function nameserversOf(resolvConf: string): string[] {
  const out: string[] = [];
  for (const line of resolvConf.split('\n')) {
    const m = /^\s*nameserver\s+(\S+)/.exec(line);
    // A link-local IPv6 server carries its zone ("fe80::1%eth0"): the trace needs the address.
    const ip = m?.[1].split('%')[0];
    if (ip && isIP(ip)) out.push(ip);
  }
  return out;
}

const isLoopback = (ip: string) => ip.startsWith('127.') || ip === '::1';

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}

export async function readDefaultGateway(view: MachineView): Promise<string | undefined> {
  return defaultGatewayOf(await readOrEmpty(view.routeTablePath));
}

/**
 * The resolver the machine asks. A loopback stub (systemd-resolved's 127.0.0.53) answers on
 * the machine itself, which tells nothing of the network: then the stub's upstream servers,
 * when the host's default resolv.conf is in use and systemd keeps them.
 */
export async function readResolver(view: MachineView): Promise<string | undefined> {
  const servers = nameserversOf(await readOrEmpty(view.resolvConfPath));
  const remote = servers.find((s) => !isLoopback(s));
  if (remote) return remote;
  if (servers.length && view.resolvConfPath === DefaultMachineView.resolvConfPath) {
    const upstream = nameserversOf(await readOrEmpty(SystemdUpstream)).find((s) => !isLoopback(s));
    if (upstream) return upstream;
  }
  return servers[0];
}
