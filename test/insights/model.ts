// A sample-level model of a path with injected faults, for the Insights scenario suite: it
// writes what an agent's trace rounds would record (latency or Timeout per hop per round)
// so the Insights pipeline (bucket kernel, series, tests) runs on it exactly as on stored
// data. Faults: loss on link N (every later hop loses too), a router that drops or delays
// only its own ICMP answers (red herring), queueing on link N under on/off load
// (saturation), a silent first hop (firewall), a silent target (unreachable), jitter.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { LatencyCode } from '../../engine/latency-codes.js';
import type { SampleColumns } from '../../wasm/kernel-types.js';

export interface ModelHop {
  /** Round-trip time to this hop without load, ms. */
  rttMs: number;
  /** Uniform extra delay 0..jitterMs on this hop's own answers. */
  jitterMs?: number;
  /** Never answers (time exceeded not sent or filtered). */
  silent?: boolean;
  /** Drops this share of its own ICMP answers only (rate limiting): a red herring. */
  icmpLossPercent?: number;
  /** Answers its own ICMP this much later (slow control plane): a red herring. */
  icmpExtraMs?: number;
  /** The link into this hop drops this share of packets: this hop and all later lose. */
  linkLossPercent?: number;
  /** The link into this hop saturates under load: queueing delay at this hop and later. */
  saturation?: { queueMs: number; onMinutes: number; offMinutes: number };
}

export interface Expected {
  /** Potential issues that must be raised: test id, outcome and the hop they name. */
  potential: { test: number; outcome: number; hop: number }[];
  /** Tests that may also raise a Potential Issue (a true consequence of the fault). */
  allowed?: number[];
  /** Hops the red-herring test must flag (loss or latency). */
  redHerrings?: { hop: number; loss?: boolean; latency?: boolean }[];
  /** The analysis must not run (too little data). */
  notRun?: boolean;
}

export interface Scenario {
  name: string;
  description: string;
  seed: number;
  minutes: number;
  intervalSeconds: number;
  hops: ModelHop[];
  target: ModelHop;
  expect: Expected;
}

export function readScenario(path: string): Scenario {
  return parse(readFileSync(path, 'utf8')) as Scenario;
}

export const modelAddress = (hop: number) => `10.251.90.${hop}`;
export const ModelStart = Date.UTC(2026, 10, 20, 8, 0, 0);

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The samples of every round; `seed` varies the run. Hops in order, the target last. */
export function simulate(s: Scenario, seed: number): SampleColumns & { length: number } {
  const rnd = rng(seed);
  const path = [...s.hops, s.target];
  const rounds = Math.floor((s.minutes * 60) / s.intervalSeconds);
  const n = rounds * path.length;
  const time = new Float64Array(n);
  const hop = new Int32Array(n);
  const latency = new Float64Array(n);
  let i = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = ModelStart + r * s.intervalSeconds * 1000;
    const minute = (r * s.intervalSeconds) / 60;
    // Queueing on saturated links while their load is on, shared by every later hop.
    const queue = path.map((h) => {
      const sat = h.saturation;
      if (!sat) return 0;
      const inCycle = minute % (sat.onMinutes + sat.offMinutes);
      return inCycle < sat.onMinutes ? sat.queueMs * (0.6 + 0.8 * rnd()) : rnd() * 0.3;
    });
    for (let k = 0; k < path.length; k++) {
      const h = path[k];
      // The probe to hop k+1 crosses links 1..k+1; each lossy link drops it independently.
      let lostOnPath = false;
      let delay = 0;
      for (let j = 0; j <= k; j++) {
        if (path[j].linkLossPercent && rnd() * 100 < path[j].linkLossPercent!) lostOnPath = true;
        delay += queue[j];
      }
      const dropsAnswer = h.silent || (h.icmpLossPercent !== undefined && rnd() * 100 < h.icmpLossPercent);
      time[i] = t0 + k; // rounds record hops a millisecond apart, in order
      hop[i] = k + 1;
      latency[i] =
        lostOnPath || dropsAnswer
          ? LatencyCode.Timeout
          : h.rttMs * (0.95 + 0.1 * rnd()) + delay + (h.jitterMs ? rnd() * h.jitterMs : 0) + (h.icmpExtraMs ? h.icmpExtraMs * (0.8 + 0.4 * rnd()) : 0);
      i++;
    }
  }
  return { length: n, time, hop, latency };
}

/** Hosts as the store would hold them: silent hops have no address; a silent target neither. */
export function modelHosts(s: Scenario): { hop: number; address: string | null; name: string }[] {
  const path = [...s.hops, s.target];
  return path.flatMap((h, k) => (h.silent ? [] : [{ hop: k + 1, address: modelAddress(k === path.length - 1 ? 250 : k + 1), name: '' }]));
}

export const modelTargetAddress = modelAddress(250);
