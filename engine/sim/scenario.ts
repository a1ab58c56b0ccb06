// Scenario files of the simulated network (YAML or JSON): one path from this host to a target,
// with per-hop addresses, round-trip times and loss, silent hops, route changes and an
// unreachable target, plus what a trace of it must show (`expect`, checked by
// test/sim/scenarios.test.ts). Addresses are test addresses (10.251.x.y, fd00:251:...): the
// simulation never sends a packet, it answers the engine's probes with reply bytes of its own.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { canonicalAddress, addressFamily } from '../codec/address.js';

export interface SimAddresses {
  v4?: string;
  v6?: string;
}

export interface SimHop extends SimAddresses {
  /** Round-trip time of this hop's answers in ms (a probe that reaches further takes the later hop's). */
  rttMs: number;
  /** Added to rttMs: uniform in [0, jitterMs). */
  jitterMs?: number;
  /** Probes arriving at this hop are dropped with this probability (so later hops lose them too). */
  lossPercent?: number;
  /** Forwards probes but never answers time exceeded (its address is not needed). */
  silent?: boolean;
  /** Drops ICMP echo probes it should forward (UDP and TCP pass): an ICMP-blocking firewall. */
  dropsIcmpEcho?: boolean;
  /**
   * An MPLS label switch router: its time exceeded carries this label stack (top first) in an
   * RFC 4884/4950 extension. exp defaults to 0, ttl to 1; the last entry is the bottom of the stack.
   */
  mpls?: { label: number; exp?: number; ttl?: number }[];
  /**
   * A translating device (source NAT, IPv4): probes it forwards leave with its address as source
   * and the UDP/TCP checksum updated, so routers after it quote another checksum than we sent.
   */
  nat?: boolean;
  /**
   * Per-packet load balancing (ECMP) onto several routers at this hop: the probes whose TTL runs
   * out here are answered in turn by this hop's address and each of these.
   */
  balancedWith?: SimAddresses[];
  /** Rewrites the DSCP of the probes it forwards to this value (0-63). */
  setsDscp?: number;
}

export interface SimTarget extends SimHop {
  /** TCP answer of the target: 'rst' (closed port, the default) or 'synAck' (open port). */
  tcp?: 'rst' | 'synAck';
  /**
   * The last hop has no route to the target: it answers destination unreachable (host
   * unreachable / address unreachable) to every probe that reaches it; the target never answers.
   */
  unreachable?: boolean;
}

export interface SimRouteChange extends SimAddresses {
  /** Ms after the first probe toward this scenario's target. */
  atMs: number;
  /** 1-based hop whose router is replaced by the one at these addresses. */
  hop: number;
}

/** What a trace of the scenario must show (see test/sim/scenarios.test.ts). */
export interface SimExpectation {
  packetTypes: ('ICMP' | 'UDP' | 'TCP')[];
  family: 4 | 6;
  rounds: number;
  intervalSeconds?: number;
  timeoutMs?: number;
  maxTtl?: number;
  /** 'all': every round reached the target; 'none': no round did; 'most': more than half. */
  reachedTarget: 'all' | 'none' | 'most';
  hops: SimExpectedHop[];
  /** Every round's hop list ends at this TTL. */
  lastTtl?: number;
  routeChange?: { ttl: number; previous: string; current: string };
}

export interface SimExpectedHop {
  ttl: number;
  /** Most frequent responder (null: never answered). */
  address: string | null;
  /** Loss in percent over the rounds, within `tolerancePercent` (default 0: exact). */
  lossPercent?: number;
  tolerancePercent?: number;
  /** Every answer of this hop is of this kind ('timeout' for silent hops). */
  reply?: 'timeout' | 'timeExceeded' | 'echoReply' | 'unreachable' | 'tcpReply';
}

export interface SimScenario {
  name: string;
  description?: string;
  /** Seed of the loss and jitter random numbers (same seed, same sends: same outcome). */
  seed?: number;
  /** This host's addresses toward the target (default 10.251.0.1 and fd00:251::1). */
  source?: SimAddresses;
  hops: SimHop[];
  target: SimTarget;
  routeChanges?: SimRouteChange[];
  expect?: SimExpectation[];
}

function fail(name: string, message: string): never {
  throw new Error(`scenario ${name}: ${message}`);
}

function checkAddresses(name: string, where: string, a: SimAddresses, required: boolean): void {
  if (required && a.v4 === undefined && a.v6 === undefined) fail(name, `${where} needs a v4 or v6 address`);
  if (a.v4 !== undefined && addressFamily(a.v4) !== 4) fail(name, `${where}: v4 ${a.v4} is not an IPv4 address`);
  if (a.v6 !== undefined && addressFamily(a.v6) !== 6) fail(name, `${where}: v6 ${a.v6} is not an IPv6 address`);
  // Compare as the engine reports them.
  if (a.v6 !== undefined) a.v6 = canonicalAddress(a.v6)!;
}

function checkHop(name: string, where: string, h: SimHop): void {
  if (!(typeof h.rttMs === 'number' && h.rttMs >= 0)) fail(name, `${where}: rttMs must be a number >= 0`);
  if (h.jitterMs !== undefined && !(h.jitterMs >= 0)) fail(name, `${where}: jitterMs must be >= 0`);
  if (h.lossPercent !== undefined && !(h.lossPercent >= 0 && h.lossPercent <= 100)) fail(name, `${where}: lossPercent must be 0..100`);
  checkAddresses(name, where, h, !h.silent);
  for (const l of h.mpls ?? []) {
    if (!(Number.isInteger(l.label) && l.label >= 0 && l.label <= 0xfffff)) fail(name, `${where}: mpls label must be 0..1048575`);
    if (l.exp !== undefined && !(Number.isInteger(l.exp) && l.exp >= 0 && l.exp <= 7)) fail(name, `${where}: mpls exp must be 0..7`);
    if (l.ttl !== undefined && !(Number.isInteger(l.ttl) && l.ttl >= 0 && l.ttl <= 255)) fail(name, `${where}: mpls ttl must be 0..255`);
  }
  if (h.nat && h.v4 === undefined) fail(name, `${where}: a NAT hop needs a v4 address`);
  if (h.setsDscp !== undefined && !(Number.isInteger(h.setsDscp) && h.setsDscp >= 0 && h.setsDscp <= 63)) fail(name, `${where}: setsDscp must be 0..63`);
  (h.balancedWith ?? []).forEach((a, i) => checkAddresses(name, `${where} balancedWith ${i + 1}`, a, true));
}

/** Validates a parsed scenario (throws an Error naming the scenario and the field). */
export function checkScenario(s: SimScenario): SimScenario {
  const name = typeof s?.name === 'string' && s.name ? s.name : fail('(unnamed)', 'name is required');
  if (!Array.isArray(s.hops)) fail(name, 'hops must be a list');
  s.hops.forEach((h, i) => checkHop(name, `hop ${i + 1}`, h));
  if (!s.target) fail(name, 'target is required');
  checkHop(name, 'target', s.target);
  checkAddresses(name, 'target', s.target, true);
  if (s.target.unreachable && s.hops.length === 0) fail(name, 'an unreachable target needs a hop to answer for it');
  if (s.target.tcp !== undefined && s.target.tcp !== 'rst' && s.target.tcp !== 'synAck') fail(name, "target.tcp must be 'rst' or 'synAck'");
  if (s.source) checkAddresses(name, 'source', s.source, true);
  for (const c of s.routeChanges ?? []) {
    if (!(Number.isInteger(c.hop) && c.hop >= 1 && c.hop <= s.hops.length)) fail(name, `route change hop must be 1..${s.hops.length}`);
    if (!(c.atMs >= 0)) fail(name, 'route change atMs must be >= 0');
    checkAddresses(name, `route change at hop ${c.hop}`, c, true);
  }
  for (const e of s.expect ?? []) {
    if (e.family !== 4 && e.family !== 6) fail(name, 'expect.family must be 4 or 6');
    if (!Array.isArray(e.packetTypes) || e.packetTypes.length === 0) fail(name, 'expect.packetTypes must list ICMP, UDP or TCP');
    if (!(Number.isInteger(e.rounds) && e.rounds > 0)) fail(name, 'expect.rounds must be a positive integer');
    if (!['all', 'none', 'most'].includes(e.reachedTarget)) fail(name, "expect.reachedTarget must be 'all', 'none' or 'most'");
    for (const h of e.hops) if (h.address) h.address = canonicalAddress(h.address) ?? fail(name, `expected address ${h.address} is not an address`);
    if (e.routeChange) {
      e.routeChange.previous = canonicalAddress(e.routeChange.previous) ?? fail(name, 'bad routeChange.previous');
      e.routeChange.current = canonicalAddress(e.routeChange.current) ?? fail(name, 'bad routeChange.current');
    }
  }
  return s;
}

/** Parses YAML (or JSON, which is YAML too) text of a scenario. */
export function parseScenario(text: string): SimScenario {
  return checkScenario(parseYaml(text) as SimScenario);
}

export function loadScenarioFile(path: string): SimScenario {
  return parseScenario(readFileSync(path, 'utf8'));
}

/**
 * Without scenario files the simulated network answers for loopback only, as the host itself
 * would (one hop, the target): enough for suites that only need some trace to run.
 */
const LOOPBACK: SimScenario = { name: 'loopback', hops: [], target: { v4: '127.0.0.1', v6: '::1', rttMs: 0.05 } };

/**
 * The scenarios of HOPWATCH_SIM_SCENARIOS (the server's and the agent's): files, or folders whose
 * .yaml, .yml and .json files are read in name order; loopback alone when there are none.
 */
export function loadScenarioPaths(paths: readonly string[]): SimScenario[] {
  const files = paths.flatMap((p) =>
    statSync(p).isDirectory() ? readdirSync(p).filter((f) => /\.(ya?ml|json)$/.test(f)).sort().map((f) => join(p, f)) : [p]);
  return files.length ? files.map(loadScenarioFile) : [LOOPBACK];
}
