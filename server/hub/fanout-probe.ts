// Bench-only timing of a hub's fan-outs (bench:hub, docs/hub.md "5,000 consoles"): when the
// server runs with HOPWATCH_HUB_FANOUT_PROBE=1, every send leaves a performance mark
// 'hub:fanout' saying when it was asked for and when its first and last socket write returned,
// which bench:hub reads through the server's inspector (a flag only benches start the server
// with). Off by default: nothing is timed or kept, and nothing is ever logged or served.
import { performance } from 'node:perf_hooks';

export const FanoutMark = 'hub:fanout';

/** One fan-out, times in epoch milliseconds (fractional: comparable with other processes'). */
export interface FanoutTimes {
  /** The frame sent (the JSON hub protocol record), so a bench can tell which event it was. */
  frame: string;
  /** Connections written to. */
  connections: number;
  /** When the hub was asked to send (or the backplane brought it back). */
  askedAt: number;
  /** When the first and the last connection's write had returned (0 when none). */
  firstWriteAt: number;
  lastWriteAt: number;
}

/** Marks kept at most (a bench of a few minutes makes a few hundred). */
const MaxMarks = 100_000;

export type FanoutProbe = (times: FanoutTimes) => void;

/** Epoch ms with the monotonic clock's fraction (Date.now() only has whole ms). */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

/** The probe the environment asks for: performance marks, or none. */
export function fanoutProbeFromEnv(env: NodeJS.ProcessEnv = process.env): FanoutProbe | undefined {
  if (env.HOPWATCH_HUB_FANOUT_PROBE !== '1') return undefined;
  let kept = 0;
  return (times) => {
    // A bench reads and clears them; a server left with the flag on keeps a bounded number.
    if (++kept > MaxMarks) {
      performance.clearMarks(FanoutMark);
      kept = 1;
    }
    performance.mark(FanoutMark, { detail: times });
  };
}
