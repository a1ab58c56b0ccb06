// The latency axis maximum shared by the grid's Graph column and the timeline graphs (spec 2
// section 9). A configured Scale > 0 is used as is; Scale 0 is automatic (1.01 x the maximum
// latency on screen, rounded to a readable value); Scale -2 follows the target graph scale.
// The automatic axis grows at once but shrinks only when the drop exceeds 15%, so it does
// not twitch with every sample.
import { isSpecialLatency } from '../../../../server/contract/latency';
import {
  AutomaticScaleHeadroom,
  GraphScaleFollowTarget,
  InitialLatencyScale,
  LatencyScaleShrinkThreshold,
} from './constants';

/** Smallest multiple of step at or above value, free of binary float noise. */
function ceilToStep(value: number, step: number, decimals: number): number {
  const steps = Math.ceil(Number((value / step).toFixed(9)));
  return Number((steps * step).toFixed(decimals));
}

/**
 * Latency axis maximum rounding: below 0.2 in steps of 0.01; below 4 in steps of 0.1;
 * below 10 in whole numbers; otherwise the next multiple of ten plus ten (45 -> 60,
 * 50 -> 60, 250 -> 260).
 */
export function roundLatencyAxisMax(maxMs: number): number {
  if (maxMs < 0.2) return ceilToStep(maxMs, 0.01, 2);
  if (maxMs < 4) return ceilToStep(maxMs, 0.1, 1);
  if (maxMs < 10) return Math.ceil(maxMs);
  return Math.ceil(maxMs / 10) * 10 + 10;
}

/** Largest measured latency among values, skipping special codes and non-numbers; 0 if none. */
export function maxMeasuredLatency(values: Iterable<number | null | undefined>): number {
  let max = 0;
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value) && !isSpecialLatency(value) && value > max) max = value;
  }
  return max;
}

/**
 * The next automatic axis maximum: grows to the rounded candidate at once, shrinks to it only
 * when the drop exceeds 15% of the current maximum. With nothing measured on screen the
 * current maximum stays.
 */
export function nextAutomaticScale(currentMs: number, maxLatencyOnScreenMs: number): number {
  if (!(maxLatencyOnScreenMs > 0)) return currentMs;
  const candidate = roundLatencyAxisMax(maxLatencyOnScreenMs * AutomaticScaleHeadroom);
  if (candidate >= currentMs) return candidate;
  const drop = (currentMs - candidate) / currentMs;
  return drop > LatencyScaleShrinkThreshold ? candidate : currentMs;
}

export interface LatencyScale {
  /** Axis maximum in ms. */
  maxMs: number;
  /** True when the value comes from Settings (the Graph header says it is fixed there). */
  fixed: boolean;
}

export interface LatencyScaleInput {
  /** Display setting Scale: > 0 fixed ms, 0 automatic, -2 follow the target graph scale. */
  configuredScale: number;
  /** The target's graph scale (GraphScale of its graph rows), used when configuredScale is -2. */
  targetGraphScale?: number;
  /** Largest measured latency currently on screen (see maxMeasuredLatency). */
  maxLatencyOnScreenMs: number;
}

/** The scale a graph starts with, before any data: 10 ms, automatic. */
export const InitialLatencyScaleState: LatencyScale = { maxMs: InitialLatencyScale, fixed: false };

/**
 * The latency scale after new data or new settings. A followed target scale that is itself
 * not a fixed value (0 or negative) falls back to automatic; so does any other setting <= 0.
 */
export function nextLatencyScale(current: LatencyScale, input: LatencyScaleInput): LatencyScale {
  const configured =
    input.configuredScale === GraphScaleFollowTarget ? (input.targetGraphScale ?? 0) : input.configuredScale;
  if (configured > 0) return { maxMs: configured, fixed: true };
  // Coming back from a fixed scale, start over from the data rather than from the fixed value.
  const base = current.fixed ? InitialLatencyScale : current.maxMs;
  return { maxMs: nextAutomaticScale(base, input.maxLatencyOnScreenMs), fixed: false };
}
