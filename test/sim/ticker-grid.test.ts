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

/** Each tick's lateness behind its place on the grid (start + (i + 1) x interval), in ms, in the order they ran. */
async function latenessUnderLoad(clock: ProbeClock): Promise<number[]> {
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
  return times.map((t, i) => t - start - (i + 1) * INTERVAL_MS);
}

/** The old way, as a control: each repeat counted from when the late tick ran (a re-armed timeout). */
const driftingClock = {
  ticker(fn: () => void) {
    let timer: NodeJS.Timeout | undefined;
    return {
      start(first: number, interval: number) {
        const arm = (ms: number) => (timer = setTimeout(() => { fn(); arm(interval); }, ms));
        arm(first);
      },
      close() { clearTimeout(timer); },
    };
  },
} as unknown as ProbeClock;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** How much the lateness grows from one tick to the next, in the middle (a skipped tick's whole interval left out). */
const growthOf = (late: number[]) => median(late.slice(1).map((x, i) => x - late[i]).filter((d) => d < INTERVAL_MS / 2));

describe('round tickers under a busy event loop', () => {
  for (const [name, clock] of [['addon (raw sockets)', rawClock], ['real-time simulated network', realTimeClock]] as const) {
    it(`${name}: ticks stay on the grid of the interval, late ticks do not push later ones back`, async () => {
      const late = await latenessUnderLoad(clock);
      const shown = late.map((x) => x.toFixed(0)).join(' ');
      // 15 ticks are due; a stall longer than an interval (a loaded machine) may skip one.
      expect(late.length, shown).toBeGreaterThanOrEqual(12);
      expect(late.length, shown).toBeLessThanOrEqual(15);
      // Each tick runs late by what blocked the loop then (up to 120 ms here, plus the machine's
      // own stalls), never by the sum of earlier lateness: before, each tick started its
      // interval when the late one ran, so the lateness grew by about 60 ms a tick (0.15 of the
      // interval; the control below). On the grid it does not grow: from one tick to the next it
      // changes by the two ticks' own delays, around 0 in the middle whatever a loaded machine
      // adds now and then (a skipped tick adds a whole interval once, and is not growth either).
      expect(growthOf(late), shown).toBeLessThan(0.08 * INTERVAL_MS);
    }, 20_000);
  }

  it('control: a ticker that counts each repeat from its late tick is caught by the same measure', async () => {
    const late = await latenessUnderLoad(driftingClock);
    expect(growthOf(late), late.map((x) => x.toFixed(0)).join(' ')).toBeGreaterThan(0.08 * INTERVAL_MS);
  }, 20_000);
});
