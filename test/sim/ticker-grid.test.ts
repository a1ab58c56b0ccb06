// The round tickers keep a grid (issue 16, 1,000 traces at 1 s): tick k at start + k x interval
// however late earlier ticks ran, so a busy event loop does not stretch the cadence. Before,
// the addon's ticker was a libuv repeating timer and the simulated network's real-time ticker
// a setInterval: both count each repeat from when the late tick ran, and 1,000 traces on a
// loaded machine got 51 rounds a minute at 1 s. Here a blocker keeps the loop busy for 120 ms
// at a time, so most ticks of a 200 ms ticker run late; over 4 s there must still be 20 ticks.
// (Before the fix: about 15.) Any user: the addon's timers need no privilege.
import { describe, expect, it } from 'vitest';
import type { ProbeClock } from '../../engine/probe/network.js';

const built = <T>(path: string): Promise<T> => import(new URL(`../../dist/${path}`, import.meta.url).href) as Promise<T>;
const { rawClock } = await built<typeof import('../../engine/probe/raw-clock.js')>('engine/probe/raw-clock.js');
const { realTimeClock } = await built<typeof import('../../engine/sim/sim-clock.js')>('engine/sim/sim-clock.js');

const INTERVAL_MS = 200;
const WINDOW_MS = 4000;

async function ticksUnderLoad(clock: ProbeClock): Promise<number> {
  let ticks = 0;
  const ticker = clock.ticker(() => { ticks++; });
  const blocker = setInterval(() => {
    const until = performance.now() + 120;
    while (performance.now() < until) { /* keep the loop busy */ }
  }, 70);
  ticker.start(INTERVAL_MS, INTERVAL_MS);
  // The window ends half an interval after tick 20 is due, so a late tick still counts.
  await new Promise((ok) => setTimeout(ok, WINDOW_MS + INTERVAL_MS / 2));
  clearInterval(blocker);
  ticker.close();
  return ticks;
}

describe('round tickers under a busy event loop', () => {
  for (const [name, clock] of [['addon (raw sockets)', rawClock], ['real-time simulated network', realTimeClock]] as const) {
    it(`${name}: one tick per interval on average, not one per interval plus lateness`, async () => {
      const ticks = await ticksUnderLoad(clock);
      // 20 due in the window; a stall longer than the interval skips a tick (never a burst).
      expect(ticks).toBeGreaterThanOrEqual(19);
      expect(ticks).toBeLessThanOrEqual(20);
    }, 20_000);
  }
});
