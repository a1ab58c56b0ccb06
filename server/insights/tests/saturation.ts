// Bandwidth saturation: a full link queues, so latency rises and falls with the load, and
// it does so at the hop behind the link and at every hop after it (they share the queue).
// The first hop whose latency is elevated for long runs, with every later hop's excess
// following it (Pearson), names the link. Links 1 to 3 are the LAN, its border and the
// LAN/ISP border (outcomes 103, 501, 502); deeper links are the WAN (503).
import { TestCategory, WisdomResultEnum, WisdomTestId } from '../../contract/insights.js';
import { CarryOnPearson, ElevatedFloorShare, ElevatedMinMs, SaturatedShare, SegmentMaxGap } from '../thresholds.js';
import { answeringAfter, pathHops, type PathHop } from '../path.js';
import { host, hopLabel, ms, result, stat, timeSegments, type WisdomTest } from '../result.js';
import type { TestContext } from '../series.js';
import type { Segment } from '../../../wasm/stats-types.js';

/** Runs shorter than this many buckets are noise, not load. */
const SaturationMinRun = 3;

interface Elevation {
  h: PathHop;
  excess: Float64Array;
  threshold: number;
  segments: Segment[];
  /** Share of answered buckets inside the segments. */
  share: number;
}

export function elevation(ctx: TestContext, h: PathHop): Elevation {
  const floor = h.figures.floorLatency;
  const lat = h.series.latency;
  const excess = new Float64Array(lat.length);
  let answered = 0;
  for (let b = 0; b < lat.length; b++) {
    excess[b] = lat[b] - floor;
    if (Number.isFinite(lat[b])) answered++;
  }
  const threshold = Math.max(ElevatedMinMs, ElevatedFloorShare * floor);
  const segments = Number.isFinite(floor) ? ctx.stats.segmentsAbove(excess, threshold, SaturationMinRun, SegmentMaxGap) : [];
  let inside = 0;
  for (const seg of segments) for (let b = seg.start; b < seg.end; b++) if (Number.isFinite(lat[b])) inside++;
  return { h, excess, threshold, segments, share: answered ? inside / answered : 0 };
}

export function saturationStart(ctx: TestContext): { start: Elevation; later: { e: Elevation; pearson: number }[] } | undefined {
  for (const h of pathHops(ctx)) {
    if (!h.figures.answered) continue;
    const e = elevation(ctx, h);
    if (e.share < SaturatedShare) continue;
    const later = answeringAfter(ctx, h.series.hop).map((l) => {
      const le = elevation(ctx, l);
      return { e: le, pearson: ctx.stats.pearson(e.excess, le.excess) };
    });
    if (later.every((l) => l.e.share >= e.share * 0.5 && l.pearson >= CarryOnPearson)) return { start: e, later };
  }
  return undefined;
}

function outcomeFor(hop: number) {
  if (hop <= 1) return WisdomResultEnum.Fail_LAN_SustainedBandwidthSaturation;
  if (hop === 2) return WisdomResultEnum.Fail_WAN_SustainedBandwidthSaturation_LAN_Network_Border;
  if (hop === 3) return WisdomResultEnum.Fail_WAN_SustainedBandwidthSaturation_LAN_ISP_Border;
  return WisdomResultEnum.Fail_WAN_SustainedBandwidthSaturation;
}

const where = (hop: number) =>
  hop <= 1 ? 'in your LAN' : hop === 2 ? 'at the LAN network border' : hop === 3 ? 'at the LAN/ISP border' : 'in the WAN';

export const sustainedBandwidthSaturation: WisdomTest = {
  id: WisdomTestId.WAN_SustainedBandwidthSaturation,
  title: 'Sustained bandwidth saturation',
  category: TestCategory.WAN,
  page: 'wan-sustained-bandwidth-saturation.md',
  run(ctx) {
    const s = ctx.series;
    const found = saturationStart(ctx);
    if (!found) return result(this, WisdomResultEnum.Pass, 'No bandwidth saturation', ['No hop shows latency that rises and falls with load and carries on to the hops after it.']);
    const { start, later } = found;
    const hop = start.h.series.hop;
    let peak = 0;
    let sum = 0;
    let n = 0;
    for (const seg of start.segments) {
      for (let b = seg.start; b < seg.end; b++) {
        const v = start.excess[b];
        if (!Number.isFinite(v)) continue;
        peak = Math.max(peak, v);
        sum += v;
        n++;
      }
    }
    const r = result(this, outcomeFor(hop), `Bandwidth saturation ${where(hop)}`, [
      `Latency rises and falls with load from hop ${hopLabel(start.h.series)} on: on average ${ms(n ? sum / n : NaN)} (up to ${ms(peak)}) above its usual ${ms(start.h.figures.floorLatency)} during ${(start.share * 100).toFixed(0)}% of the time.`,
      `Every hop after it follows the same pattern, so the link into hop #${hop} is saturated ${where(hop)}.`,
    ], [
      stat('AverageExcessLatency', 'Added latency under load', n ? sum / n : NaN, 'ms', true),
      stat('PeakExcessLatency', 'Peak added latency', peak, 'ms'),
      stat('SaturatedShare', 'Share of time saturated', start.share * 100, '%', true),
      stat('StartHop', 'Saturation from hop', hop, '', true, 0),
    ]);
    r.WisdomHosts = [host(start.h.series, s.targetId, 1), ...later.map((l) => host(l.e.h.series, s.targetId, l.pearson))];
    r.WisdomSegments = [timeSegments(s, start.segments, 'AverageExcessLatency', start.excess)];
    return r;
  },
};
