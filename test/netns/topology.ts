// Builds a Scenario out of network namespaces, veth pairs, routes, nftables rules and tbf
// (the commands ARCHITECTURE.md verified; no netem), and removes it again. The root namespace
// gets one veth to router 1 and routes for this scenario's subnets only.
import { execFileSync } from 'node:child_process';
import { openSync, readFileSync, unlinkSync, writeFileSync, closeSync } from 'node:fs';
import type { Scenario } from './scenario.js';

export interface Topology {
  scenario: Scenario;
  /** Source addresses in the root namespace. */
  hostAddress: { v4: string; v6: string };
  target: { v4: string; v6: string };
  /** Expected responder of hop k (1-based; hop routers+1 is the target), before changeRoute(). */
  hop(k: number): { v4: string; v6: string };
  /** Address of the alternate router (answers at hop alternateRouter after changeRoute()). */
  alternateHop(): { v4: string; v6: string };
  changeRoute(): void;
  /** Runs a command inside a namespace of this topology (router k, or 'target'). */
  exec(node: number | 'target', cmd: string[]): string;
  destroy(): void;
}

const ALT_LINK_UP = 30;
const ALT_LINK_DOWN = 31;
/** The unreachable target lives in this link's subnet, which no node owns. */
const UNREACHABLE_LINK = 29;

function run(args: string[], input?: string): string {
  return execFileSync(args[0], args.slice(1), { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

function tryRun(args: string[]): void {
  try { run(args); } catch { /* already gone */ }
}

const prefix = (id: number) => `hw${id}`;

/**
 * One user of a topology id at a time, machine-wide: a second run (another worktree, a bench)
 * building the same id would delete the first one's namespaces under it, and the first one's
 * probes would then follow the root namespace's default route off the machine. The second
 * one fails instead, naming the process that holds the id; a lock of a dead process is taken over.
 */
const lockPath = (id: number) => `/run/hopwatch-test-netns-${id}.lock`;

function lockTopology(id: number): void {
  const path = lockPath(id);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (holder === process.pid) return;
      if (holder > 0 && alive(holder)) throw new Error(`test network ${id} (namespaces hw${id}-*) is in use by process ${holder}: run one suite per topology id at a time`);
      try { unlinkSync(path); } catch { /* taken over by another meanwhile */ }
    }
  }
  throw new Error(`test network ${id}: could not take its lock ${path}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlockTopology(id: number): void {
  try {
    if (Number(readFileSync(lockPath(id), 'utf8').trim()) === process.pid) unlinkSync(lockPath(id));
  } catch { /* not held */ }
}

/**
 * Routes of last resort for the scenario's subnets in the root namespace: when its namespaces
 * (and with them the routes via router 1) are gone mid-test, probes to its addresses are
 * refused on the machine instead of leaving by the default route.
 */
const guardRoutes = (id: number) => [
  ['ip', 'route', 'replace', 'unreachable', `10.251.${id}.0/24`, 'metric', '4000000000'],
  ['ip', '-6', 'route', 'replace', 'unreachable', `fd00:251:${id}::/48`, 'metric', '4000000000'],
];

function removeGuardRoutes(id: number): void {
  for (const r of guardRoutes(id)) tryRun(r.map((a) => (a === 'replace' ? 'delete' : a)));
}

/** A Scenario whose links (every veth, both ends) may have another MTU than 1500. */
export type TopologyScenario = Scenario & { mtu?: number };

/** Removes whatever a previous (possibly crashed) run of scenario `id` left behind. */
export function removeTopology(id: number): void {
  const p = prefix(id);
  const list = run(['ip', 'netns', 'list']).split('\n').map((l) => l.split(' ')[0]).filter((n) => n.startsWith(`${p}-`));
  for (const ns of list) tryRun(['ip', 'netns', 'delete', ns]);
  // The root end of the host link disappears with its peer; delete it explicitly in case.
  tryRun(['ip', 'link', 'delete', `${p}x0a`]);
}

export function buildTopology(s: TopologyScenario): Topology {
  const p = prefix(s.id);
  const n = s.routers;
  lockTopology(s.id);
  removeTopology(s.id);
  for (const r of guardRoutes(s.id)) run(r);
  const nodeNs = (k: number) => (k === 0 ? null : k === n + 1 ? `${p}-t` : `${p}-r${k}`);
  const altNs = `${p}-alt`;
  const v4 = (link: number, end: 1 | 2) => `10.251.${s.id}.${link * 8 + end}`;
  // Canonical (RFC 5952) text, so it compares equal to what the engine reports.
  const v6 = (link: number, end: 1 | 2) => (link === 0 ? `fd00:251:${s.id}::${end}` : `fd00:251:${s.id}:${link}::${end}`);
  const ipIn = (ns: string | null, args: string[]) => run(ns ? ['ip', '-n', ns, ...args] : ['ip', ...args]);
  const execIn = (ns: string, cmd: string[]) => run(['ip', 'netns', 'exec', ns, ...cmd]);

  const namespaces = [...Array.from({ length: n + 1 }, (_, i) => nodeNs(i + 1)!), ...(s.alternateRouter ? [altNs] : [])];
  try {
    for (const ns of namespaces) {
      run(['ip', 'netns', 'add', ns]);
      ipIn(ns, ['link', 'set', 'lo', 'up']);
      // Routers must answer every probe: no ICMP rate limiting, no reverse-path filtering, no DAD wait.
      execIn(ns, ['sysctl', '-q', '-w',
        'net.ipv4.ip_forward=1', 'net.ipv6.conf.all.forwarding=1',
        'net.ipv4.icmp_ratelimit=0', 'net.ipv4.icmp_msgs_per_sec=1000000', 'net.ipv4.icmp_msgs_burst=1000000',
        'net.ipv6.icmp.ratelimit=0', 'net.ipv4.conf.all.rp_filter=0', 'net.ipv4.conf.default.rp_filter=0',
        'net.ipv6.conf.all.accept_dad=0', 'net.ipv6.conf.default.accept_dad=0']);
    }
    const link = (num: number, up: string | null, down: string) => {
      const a = `${p}x${num}a`;
      const b = `${p}x${num}b`;
      run(['ip', 'link', 'add', a, 'type', 'veth', 'peer', 'name', b]);
      if (up) run(['ip', 'link', 'set', a, 'netns', up]);
      run(['ip', 'link', 'set', b, 'netns', down]);
      ipIn(up, ['addr', 'add', `${v4(num, 1)}/29`, 'dev', a]);
      ipIn(up, ['addr', 'add', `${v6(num, 1)}/64`, 'dev', a, 'nodad']);
      ipIn(down, ['addr', 'add', `${v4(num, 2)}/29`, 'dev', b]);
      ipIn(down, ['addr', 'add', `${v6(num, 2)}/64`, 'dev', b, 'nodad']);
      if (s.mtu) {
        ipIn(up, ['link', 'set', a, 'mtu', String(s.mtu)]);
        ipIn(down, ['link', 'set', b, 'mtu', String(s.mtu)]);
      }
      ipIn(up, ['link', 'set', a, 'up']);
      ipIn(down, ['link', 'set', b, 'up']);
    };
    for (let k = 0; k <= n; k++) link(k, nodeNs(k), nodeNs(k + 1)!);
    if (s.alternateRouter) {
      link(ALT_LINK_UP, nodeNs(s.alternateRouter - 1), altNs);
      link(ALT_LINK_DOWN, altNs, nodeNs(s.alternateRouter + 1)!);
    }

    // Root namespace: routes for this scenario's subnets only.
    run(['ip', 'route', 'replace', `10.251.${s.id}.0/24`, 'via', v4(0, 2)]);
    run(['ip', '-6', 'route', 'replace', `fd00:251:${s.id}::/48`, 'via', v6(0, 2)]);
    // Each router: upstream by default, downstream links by explicit routes.
    for (let k = 1; k <= n + 1; k++) {
      const ns = nodeNs(k)!;
      ipIn(ns, ['route', 'add', 'default', 'via', v4(k - 1, 1)]);
      ipIn(ns, ['-6', 'route', 'add', 'default', 'via', v6(k - 1, 1)]);
      const downstream = Array.from({ length: Math.max(0, n - k) }, (_, i) => k + 1 + i);
      if (s.unreachableTarget && k < n) downstream.push(UNREACHABLE_LINK);
      for (const l of downstream) {
        ipIn(ns, ['route', 'add', `10.251.${s.id}.${l * 8}/29`, 'via', v4(k, 2)]);
        ipIn(ns, ['-6', 'route', 'add', `fd00:251:${s.id}:${l}::/64`, 'via', v6(k, 2)]);
      }
    }
    if (s.alternateRouter) {
      const k = s.alternateRouter;
      ipIn(altNs, ['route', 'add', 'default', 'via', v4(ALT_LINK_UP, 1)]);
      ipIn(altNs, ['-6', 'route', 'add', 'default', 'via', v6(ALT_LINK_UP, 1)]);
      for (let l = k; l <= n; l++) {
        ipIn(altNs, ['route', 'add', `10.251.${s.id}.${l * 8}/29`, 'via', v4(ALT_LINK_DOWN, 2)]);
        ipIn(altNs, ['-6', 'route', 'add', `fd00:251:${s.id}:${l}::/64`, 'via', v6(ALT_LINK_DOWN, 2)]);
      }
    }
    if (s.unreachableTarget) {
      // The target address is routed to the last router, which has an unreachable route for it.
      const last = nodeNs(n)!;
      ipIn(last, ['route', 'add', 'unreachable', `${v4(UNREACHABLE_LINK, 2)}/32`]);
      ipIn(last, ['-6', 'route', 'add', 'unreachable', `${v6(UNREACHABLE_LINK, 2)}/128`]);
    }

    const nft = (ns: string, script: string) => run(['ip', 'netns', 'exec', ns, 'nft', '-f', '-'], script);
    for (const l of s.loss ?? []) {
      nft(nodeNs(l.router)!, `table inet hwloss {
  chain pre { type filter hook prerouting priority -300; iifname "${p}x${l.router - 1}b" numgen random mod 100 < ${l.percent} drop; }
}\n`);
    }
    for (const r of s.silent ?? []) {
      nft(nodeNs(r)!, `table inet hwsilent {
  chain out { type filter hook output priority 0; icmp type time-exceeded drop; icmpv6 type time-exceeded drop; }
}\n`);
    }
    if (s.icmpFirewallAtHop1) {
      nft(nodeNs(1)!, `table inet hwfw {
  chain forwardfilter { type filter hook forward priority 0; icmp type echo-request drop; icmpv6 type echo-request drop; }
}\n`);
    }
    if (s.rateLimit) {
      const r = s.rateLimit;
      run(['ip', 'netns', 'exec', nodeNs(r.router)!, 'tc', 'qdisc', 'add', 'dev', `${p}x${r.router}a`, 'root', 'tbf',
        'rate', r.rate, 'burst', r.burst, 'latency', r.latency]);
    }
  } catch (err) {
    destroyTopology(s.id);
    throw err;
  }

  const hop = (k: number) => ({ v4: v4(k - 1, 2), v6: v6(k - 1, 2) });
  return {
    scenario: s,
    hostAddress: { v4: v4(0, 1), v6: v6(0, 1) },
    target: s.unreachableTarget
      ? { v4: v4(UNREACHABLE_LINK, 2), v6: v6(UNREACHABLE_LINK, 2) }
      : hop(n + 1),
    hop,
    alternateHop: () => ({ v4: v4(ALT_LINK_UP, 2), v6: v6(ALT_LINK_UP, 2) }),
    changeRoute() {
      const k = s.alternateRouter;
      if (!k) throw new Error('scenario has no alternate router');
      const before = nodeNs(k - 1);
      for (let l = k; l <= n; l++) {
        ipIn(before, ['route', 'replace', `10.251.${s.id}.${l * 8}/29`, 'via', v4(ALT_LINK_UP, 2)]);
        ipIn(before, ['-6', 'route', 'replace', `fd00:251:${s.id}:${l}::/64`, 'via', v6(ALT_LINK_UP, 2)]);
      }
      if (k === 1) {
        // The root namespace is "before": its /24 and /48 routes move to the alternate link.
        run(['ip', 'route', 'replace', `10.251.${s.id}.0/24`, 'via', v4(ALT_LINK_UP, 2)]);
        run(['ip', '-6', 'route', 'replace', `fd00:251:${s.id}::/48`, 'via', v6(ALT_LINK_UP, 2)]);
      }
      const after = nodeNs(k + 1)!;
      ipIn(after, ['route', 'replace', 'default', 'via', v4(ALT_LINK_DOWN, 1)]);
      ipIn(after, ['-6', 'route', 'replace', 'default', 'via', v6(ALT_LINK_DOWN, 1)]);
    },
    exec: (node, cmd) => execIn(node === 'target' ? nodeNs(n + 1)! : nodeNs(node)!, cmd),
    destroy: () => destroyTopology(s.id),
  };
}

/** The namespaces, then the guard routes, then the lock: nothing of the scenario is left. */
function destroyTopology(id: number): void {
  removeTopology(id);
  removeGuardRoutes(id);
  unlockTopology(id);
}
