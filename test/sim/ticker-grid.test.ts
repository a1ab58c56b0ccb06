// The round tickers keep a grid (issue 16, 1,000 traces at 1 s): tick k at start + k x interval
// however late earlier ticks ran, so a busy event loop does not stretch the cadence. Before,
// the addon's ticker was a libuv repeating timer and the simulated network's real-time ticker
// a setInterval: both count each repeat from when the late tick ran, and 1,000 traces on a
// loaded machine got 51 rounds a minute at 1 s. Here a blocker keeps the loop busy for 120 ms
// at a time, so most ticks of a 400 ms ticker run late; each must still run at its own point
// of the grid plus that tick's own delay. Any user: the addon's timers need no privilege.
import { describe, expect, it } from 'vitest';
import type { ProbeClock } from '../../engine/probe/network.js';

const built = <T>(path: string): Promise<T> => import(new URL(`../../dist/${path}`, import.meta.url).href) as Promise<T>;
const { rawClock } = await built<typeof import('../../engine/probe/raw-clock.js')>('engine/probe/raw-clock.js');
const { realTimeClock } = await built<typeof import('../../engine/sim/sim-clock.js')>('engine/sim/sim-clock.js');

const INTERVAL_MS = 400;
const WINDOW_MS = 6000;

/** Each tick's lateness behind its point of the grid (start + k x interval), as a fraction of the interval. */
async function phasesUnderLoad(clock: ProbeClock): Promise<number[]> {
  const times: number[] = [];
  const ticker = clock.ticker(() => { times.push(performance.now()); });
  const blocker = setInterval(() => {
    const until = performance.now() + 120;
    while (performance.now() < until) { /* keep the loop busy */ }
  }, 70);
  const start = performance.now();
  ticker.start(INTERVAL_MS, INTERVAL_MS);
  await new Promise((ok) => setTimeout(ok, WINDOW_MS + INTERVAL_MS / 2));
  clearInterval(blocker);
  ticker.close();
  return times.map((t) => ((t - start) / INTERVAL_MS) % 1);
}

describe('round tickers under a busy event loop', () => {
  for (const [name, clock] of [['addon (raw sockets)', rawClock], ['real-time simulated network', realTimeClock]] as const) {
    it(`${name}: ticks stay on the grid of the interval, late ticks do not push later ones back`, async () => {
      const phases = await phasesUnderLoad(clock);
      // 15 ticks are due; a stall longer than an interval (a loaded machine) may skip one.
      expect(phases.length).toBeGreaterThanOrEqual(12);
      expect(phases.length).toBeLessThanOrEqual(15);
      // Each tick runs late by what blocked the loop then (up to 120 ms here, plus the machine's
      // own delays), never by the sum of earlier lateness: before, the phase grew by about 60 ms
      // a tick and passed 0.75 of the interval within a few ticks.
      for (const ph of phases) expect(ph, `phases ${phases.map((x) => x.toFixed(2)).join(' ')}`).toBeLessThan(0.75);
    }, 20_000);
  }
});
