// What an alert watches (docs/alerts.md): a condition on one hop of a target (or the target
// itself, hop 0) over its last N samples. Pure: the evaluator feeds samples, this says
// whether the condition holds and the figures the notifications carry.
import { LatencyCode, isSpecialLatency } from '../../engine/latency-codes.js';

import { ConditionKinds, LatencyStatistics, type Condition } from '../contract/alerts.js';

export const MaxSamples = 1000;
/** 31 days. */
export const MaxOfflineSeconds = 2_678_400;

/** A clear message for the first thing wrong with a condition, or undefined. */
export function conditionProblem(c: Condition): string | undefined {
  if (!ConditionKinds.includes(c.Kind)) return `Condition Kind must be one of ${ConditionKinds.join(', ')}.`;
  if (c.Kind === 'agentOffline') {
    // The agent's link, not samples, decides it: Hop and Samples do not apply.
    if (!Number.isInteger(c.OfflineSeconds) || c.OfflineSeconds! < 1 || c.OfflineSeconds! > MaxOfflineSeconds) return `An agentOffline condition needs OfflineSeconds: a whole number from 1 to ${MaxOfflineSeconds}.`;
    return undefined;
  }
  if (!Number.isInteger(c.Hop) || c.Hop < 0 || c.Hop > 255) return 'Condition Hop must be 0 (the target) or a hop number up to 255.';
  if (!Number.isInteger(c.Samples) || c.Samples < 1 || c.Samples > MaxSamples) return `Condition Samples must be a whole number from 1 to ${MaxSamples}.`;
  if (c.Kind === 'loss' && (!Number.isInteger(c.Lost) || c.Lost! < 1 || c.Lost! > c.Samples)) return 'A loss condition needs Lost: how many of the Samples lost (1 to Samples).';
  if ((c.Kind === 'latency' || c.Kind === 'jitter') && !(typeof c.ThresholdMs === 'number' && c.ThresholdMs >= 0 && c.ThresholdMs <= 600_000)) return `A ${c.Kind} condition needs ThresholdMs from 0 to 600000.`;
  if (c.Kind === 'latency' && c.Statistic !== undefined && !LatencyStatistics.includes(c.Statistic)) return `Statistic must be one of ${LatencyStatistics.join(', ')}.`;
  if (c.Kind === 'mos' && !(typeof c.Mos === 'number' && c.Mos >= 1 && c.Mos <= 5)) return 'A MOS condition needs Mos from 1 to 5.';
  return undefined;
}

const where = (hop: number) => (hop === 0 ? 'the target' : `hop ${hop}`);

/** The condition in words, for notifications and the alerts page. */
export function describeCondition(c: Condition): string {
  switch (c.Kind) {
    case 'loss':
      return `${c.Lost} of the last ${c.Samples} samples lost at ${where(c.Hop)}`;
    case 'latency':
      return `${c.Statistic ?? 'average'} latency of the last ${c.Samples} samples above ${c.ThresholdMs} ms at ${where(c.Hop)}`;
    case 'jitter':
      return `jitter of the last ${c.Samples} samples above ${c.ThresholdMs} ms at ${where(c.Hop)}`;
    case 'mos':
      return `MOS of the last ${c.Samples} samples below ${c.Mos} at ${where(c.Hop)}`;
    case 'unreachable':
      return `the target unreachable: no answer in the last ${c.Samples} samples`;
    case 'routeChanged':
      return 'the route changed';
    case 'agentOffline':
      return `the target's agent offline for more than ${c.OfflineSeconds} s`;
  }
}

/** Figures over the window, in the notifications' variables. */
export interface WindowFigures {
  /** Lost percent of the window. */
  loss: number;
  /** Average latency of the answered samples (ms), NaN without any. */
  latency: number;
  jitter: number;
  mos: number;
  samples: number;
}

/**
 * The last N samples of one hop: a ring of latencies (the Timeout code for a lost probe).
 * Loss count and sum kept as samples come and go, so a push is O(1); the percentile,
 * jitter and MOS walk the window (at most 1000 values) only when asked.
 */
export class SampleWindow {
  private readonly values: Float64Array;
  /** Each sample's time (epoch ms): the window's span, for the export action. */
  private readonly times: Float64Array;
  private next = 0;
  count = 0;
  private lostCount = 0;
  private sum = 0;

  constructor(readonly size: number) {
    this.values = new Float64Array(size);
    this.times = new Float64Array(size);
  }

  push(latency: number, time = 0): void {
    if (this.count === this.size) {
      const old = this.values[this.next];
      if (old === LatencyCode.Timeout) this.lostCount--;
      else this.sum -= old;
    } else this.count++;
    this.values[this.next] = latency;
    this.times[this.next] = time;
    if (latency === LatencyCode.Timeout) this.lostCount++;
    else this.sum += latency;
    this.next = (this.next + 1) % this.size;
  }

  get full(): boolean {
    return this.count === this.size;
  }

  /** The time of the oldest sample in the window (undefined: empty). */
  oldestTime(): number | undefined {
    if (!this.count) return undefined;
    return this.times[this.count === this.size ? this.next : 0];
  }

  get lost(): number {
    return this.lostCount;
  }

  /** Oldest first. */
  ordered(): number[] {
    const out: number[] = [];
    const start = this.count === this.size ? this.next : 0;
    for (let i = 0; i < this.count; i++) out.push(this.values[(start + i) % this.size]);
    return out;
  }

  average(): number {
    const answered = this.count - this.lostCount;
    return answered ? this.sum / answered : NaN;
  }

  percentile(p: number): number {
    const answered = this.ordered().filter((v) => v !== LatencyCode.Timeout).sort((a, b) => a - b);
    if (!answered.length) return NaN;
    return answered[Math.min(answered.length - 1, Math.ceil((p / 100) * answered.length) - 1)];
  }

  /** Mean absolute difference of consecutive answered samples (RFC 3550's idea, unsmoothed). */
  jitter(): number {
    const answered = this.ordered().filter((v) => v !== LatencyCode.Timeout);
    if (answered.length < 2) return NaN;
    let d = 0;
    for (let i = 1; i < answered.length; i++) d += Math.abs(answered[i] - answered[i - 1]);
    return d / (answered.length - 1);
  }

  figures(): WindowFigures {
    const loss = this.count ? (100 * this.lostCount) / this.count : 0;
    const latency = this.average();
    const jitter = this.jitter();
    return { loss, latency, jitter, mos: meanOpinionScore(latency, Number.isNaN(jitter) ? 0 : jitter, loss), samples: this.count };
  }
}

/**
 * MOS from latency, jitter and loss: the simplified ITU-T G.107 E-model most monitoring tools
 * use (PingPlotter and others): effective latency = latency + 2 jitter + 10 ms, R from it and
 * 2.5 per lost percent, MOS from R. Nothing answered: 1.
 */
export function meanOpinionScore(latencyMs: number, jitterMs: number, lossPercent: number): number {
  if (Number.isNaN(latencyMs)) return 1;
  const effective = latencyMs + 2 * jitterMs + 10;
  let r = effective < 160 ? 93.2 - effective / 40 : 93.2 - (effective - 120) / 10;
  r -= 2.5 * lossPercent;
  if (r < 0) return 1;
  return Math.max(1, Math.min(4.5, 1 + 0.035 * r + 0.000007 * r * (r - 60) * (100 - r)));
}

/** Whether a value enters a window: measured, or lost; the other codes are no sample. */
export const isWindowSample = (latency: number) => !isSpecialLatency(latency) || latency === LatencyCode.Timeout;

/** Whether the condition holds on a full window (undefined: not enough samples yet). */
export function holds(c: Condition, w: SampleWindow): boolean | undefined {
  switch (c.Kind) {
    case 'loss':
      // Enough lost ones decide before the window is full.
      if (w.lost >= c.Lost!) return true;
      return w.full ? false : undefined;
    case 'unreachable':
      return w.full ? w.lost === w.count : undefined;
    case 'latency': {
      if (!w.full) return undefined;
      const stat = c.Statistic ?? 'average';
      const v = stat === 'average' ? w.average() : w.percentile(Number(stat.slice(1)));
      return !Number.isNaN(v) && v > c.ThresholdMs!;
    }
    case 'jitter': {
      if (!w.full) return undefined;
      const j = w.jitter();
      return !Number.isNaN(j) && j > c.ThresholdMs!;
    }
    case 'mos': {
      if (!w.full) return undefined;
      return w.figures().mos < c.Mos!;
    }
    case 'routeChanged':
    case 'agentOffline':
      return undefined; // decided by route change and agent link events, not samples (evaluator.ts)
  }
}
