// WAN_InsufficientData and Target_InsufficientData: less than 10 minutes of data (spec 3
// section 5, Sidekick's rule) or too few probes makes every other verdict a guess, so the
// analysis does not run and these results give the reasons.
import { TestCategory, WisdomMinimumDataMs, WisdomResultEnum, WisdomTestId } from '../../contract/insights.js';
import { targetHop } from '../path.js';
import { result, type WisdomTest } from '../result.js';
import type { TestContext } from '../series.js';

/** Fewer probes than this at a hop is too few to judge loss (1% of 60). */
export const MinimumProbes = 60;

/** The time covered by buckets that hold probes, in ms. */
export function dataSpanMs(ctx: TestContext): number {
  const s = ctx.series;
  let first = -1;
  let last = -1;
  for (let b = 0; b < s.bucketCount; b++) {
    if (s.hops.some((h) => h.sent[b] > 0)) {
      if (first < 0) first = b;
      last = b;
    }
  }
  return first < 0 ? 0 : (last - first + 1) * s.bucketMs;
}

const minutes = (msValue: number) => `${(msValue / 60_000).toFixed(1)} minutes`;

export const wanInsufficientData: WisdomTest = {
  id: WisdomTestId.WAN_InsufficientData,
  title: 'Enough data for the route',
  category: TestCategory.WAN,
  page: 'insufficient-data.md',
  run(ctx) {
    const span = dataSpanMs(ctx);
    const probes = Math.max(0, ...ctx.figures.map((f) => f.sent));
    if (span >= WisdomMinimumDataMs && probes >= MinimumProbes) {
      return result(this, WisdomResultEnum.Pass, 'Enough data', [`${minutes(span)} of data with ${probes} probes per hop.`]);
    }
    return result(this, WisdomResultEnum.Fail, 'Not enough data', [
      `The range holds ${minutes(span)} of data with ${probes} probes per hop; Insights needs at least ${minutes(WisdomMinimumDataMs)} and ${MinimumProbes} probes.`,
      'Choose a longer range, or let the trace run longer.',
    ]);
  },
};

export const targetInsufficientData: WisdomTest = {
  id: WisdomTestId.Target_InsufficientData,
  title: 'Enough data for the target',
  category: TestCategory.Target,
  page: 'insufficient-data.md',
  run(ctx) {
    const t = targetHop(ctx);
    const sent = t?.figures.sent ?? Math.max(0, ...ctx.figures.map((f) => f.sent));
    if (sent >= MinimumProbes && dataSpanMs(ctx) >= WisdomMinimumDataMs) {
      return result(this, WisdomResultEnum.Pass, 'Enough data', [`${sent} probes to the target.`]);
    }
    return result(this, WisdomResultEnum.Fail, 'Not enough data for the target', [
      `${sent} probes reached the target's row in ${minutes(dataSpanMs(ctx))}; at least ${MinimumProbes} in ${minutes(WisdomMinimumDataMs)} are needed.`,
    ]);
  },
};
