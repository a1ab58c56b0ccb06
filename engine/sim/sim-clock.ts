// Clocks of the simulated network. realTimeClock: Node timers and process.hrtime, for a server
// that runs the simulation as if it were a network (the console, API and hub suites).
// VirtualClock: time that jumps from timer to timer as soon as the process has nothing else
// to do, so a test of many rounds at a 1 s interval takes milliseconds and gives the same
// rounds every run (loss and jitter come from a seeded generator, see sim-network.ts).
import type { ProbeClock, Ticker, TimerRef } from '../probe/network.js';

export const realTimeClock: ProbeClock = {
  wallMs: () => Date.now(),
  monoNs: () => Number(process.hrtime.bigint()),
  setTimer: (cb, ms) => setTimeout(cb, ms),
  clearTimer: (t) => clearTimeout(t as NodeJS.Timeout),
  ticker(cb): Ticker {
    // A grid like the addon's ticker (rawsock.c): tick k at start + delay + k * repeat. Node's
    // setInterval counts each repeat from when the late tick ran, so lateness would add up.
    let timer: NodeJS.Timeout | null = null;
    const stop = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    return {
      start(delayMs, repeatMs) {
        stop();
        let due = performance.now() + delayMs;
        const tick = () => {
          timer = null;
          if (repeatMs > 0) {
            const now = performance.now();
            due += repeatMs;
            if (due + repeatMs <= now) due += Math.floor((now - due) / repeatMs) * repeatMs;
            timer = setTimeout(tick, Math.max(0, due - now));
          }
          cb();
        };
        timer = setTimeout(tick, delayMs);
      },
      stop,
      close: stop,
    };
  },
};

interface VirtualTimer {
  due: number;
  order: number;
  cb: () => void;
  cancelled: boolean;
}

export class VirtualClock implements ProbeClock {
  /** Virtual ms since the clock was made. */
  private now = 0;
  private readonly wallBase = Date.now();
  /** Pending timers, sorted by due time, then by the order they were set (FIFO at equal times). */
  private timers: VirtualTimer[] = [];
  private order = 0;
  private pumping = false;

  wallMs(): number {
    return this.wallBase + this.now;
  }

  monoNs(): number {
    return this.now * 1e6;
  }

  /** Virtual ms elapsed since the clock was made. */
  elapsedMs(): number {
    return this.now;
  }

  setTimer(cb: () => void, ms: number): TimerRef {
    const t: VirtualTimer = { due: this.now + Math.max(0, ms), order: this.order++, cb, cancelled: false };
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].due > t.due) i--;
    this.timers.splice(i, 0, t);
    this.pump();
    return t;
  }

  clearTimer(t: TimerRef): void {
    const timer = t as VirtualTimer;
    timer.cancelled = true;
    const i = this.timers.indexOf(timer);
    if (i >= 0) this.timers.splice(i, 1);
  }

  ticker(cb: () => void): Ticker {
    let current: TimerRef | null = null;
    const stop = () => {
      if (current) this.clearTimer(current);
      current = null;
    };
    const arm = (ms: number, repeatMs: number) => {
      current = this.setTimer(() => {
        current = null;
        if (repeatMs > 0) arm(repeatMs, repeatMs);
        cb();
      }, ms);
    };
    return { start: (delayMs, repeatMs) => { stop(); arm(delayMs, repeatMs); }, stop, close: stop };
  }

  /** Resolves once virtual time has advanced by ms (tests: "wait 300 ms" without waiting). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(resolve, ms));
  }

  /**
   * Fires the earliest timer on the next turn of the event loop, one per turn: whatever the
   * process does in between (port messages, promises, I/O) happens "at" that virtual time.
   */
  private pump(): void {
    if (this.pumping || this.timers.length === 0) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      const t = this.timers.shift();
      if (t && !t.cancelled) {
        if (t.due > this.now) this.now = t.due;
        t.cb();
      }
      this.pump();
    });
  }
}
