// Real time for the raw-socket network: Date.now(), the addon's CLOCK_MONOTONIC (the scale of
// its send and receive stamps), Node timers for one-off timers, and the addon's ticker for
// round cadences (no Node timer object per round: see docs/engine.md, Performance).
import type { ProbeClock, Ticker } from './network.js';
import { rawsock } from './rawsock.js';

export const rawClock: ProbeClock = {
  wallMs: () => Date.now(),
  monoNs: () => rawsock().now(),
  setTimer: (cb, ms) => setTimeout(cb, ms),
  clearTimer: (t) => clearTimeout(t as NodeJS.Timeout),
  ticker(cb): Ticker {
    const addon = rawsock();
    const t = addon.ticker(cb);
    return {
      start: (delayMs, repeatMs) => addon.tickerStart(t, delayMs, repeatMs),
      stop: () => addon.tickerStop(t),
      close: () => addon.tickerClose(t),
    };
  },
};
