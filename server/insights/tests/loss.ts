// Where loss starts: loss at a hop that carries on to every later answering hop is loss on
// the path (WAN_SustainedPacketLoss); loss at a hop that does not carry on is that router's
// ICMP handling (rate limiting its own answers), a red herring (WAN_FindRedHerringHops).
import { pathLossFindings } from '../../contract/hop-loss.js';
import { TestCategory, WisdomResultEnum, WisdomTestId } from '../../contract/insights.js';
import { LossPercent, LossyBucketPercent, RedHerringLatencyMs, RedHerringLatencyShare, SegmentMaxGap } from '../thresholds.js';
import { answeringAfter, intermediateHops, pathHops, type PathHop } from '../path.js';
import { host, hopLabel, pct, result, stat, timeSegments, type WisdomTest } from '../result.js';
import { lossSeries, type TestContext } from '../series.js';

export interface LossFindings {
  /** The first hop whose loss carries on to the end of the path; undefined when none. */
  start: PathHop | undefined;
  /** Answering hops with loss that does not carry on. */
  redHerrings: PathHop[];
}

/** The shared rule (server/contract/hop-loss.ts, also the console's) over the path's hops. */
export function lossFindings(ctx: TestContext): LossFindings {
  const hops = pathHops(ctx).map((h) => ({ hop: h.series.hop, lossPercent: h.figures.lossPercent, answered: h.figures.answered, h }));
  const { start, redHerrings } = pathLossFindings(hops, ctx.series.targetHop);
  return { start: start?.h, redHerrings: redHerrings.map((r) => r.h) };
}

export const sustainedPacketLoss: WisdomTest = {
  id: WisdomTestId.WAN_SustainedPacketLoss,
  title: 'Sustained packet loss',
  category: TestCategory.WAN,
  page: 'wan-sustained-packet-loss.md',
  run(ctx) {
    const s = ctx.series;
    const inter = intermediateHops(ctx);
    const returned = inter.filter((h) => h.figures.answered).length;
    const returnedLine = `Traceroute packets are returned from ${returned} of ${inter.length} intermediate hops.`;
    const { start } = lossFindings(ctx);
    if (!start) {
      return result(this, WisdomResultEnum.Pass, 'No sustained packet loss', ['No hop shows packet loss that carries on to the hops after it.', returnedLine]);
    }
    const isTarget = start.series.hop === s.targetHop;
    const where = isTarget ? `the target ${hopLabel(start.series)}` : `intermediate hop ${hopLabel(start.series)}`;
    const r = result(
      this,
      WisdomResultEnum.Fail_WAN_SustainedPacketLoss,
      `Packet loss begins at ${isTarget ? 'the target' : `intermediate hop #${start.series.hop}`}`,
      [
        `Packet loss begins at ${where} with an average of ${pct(start.figures.lossPercent)} lost packets.`,
        'Every hop after it loses packets too, so the loss is on the path, not in the routers\' answers.',
        returnedLine,
      ],
      [stat('AverageLostPackets', 'Average lost packets', start.figures.lossPercent, '%', true), stat('StartHop', 'Loss begins at hop', start.series.hop, '', true, 0)],
    );
    const startLoss = lossSeries(start.series);
    r.WisdomHosts = [start, ...answeringAfter(ctx, start.series.hop)].map((h) =>
      host(h.series, s.targetId, h === start ? 1 : ctx.stats.pearson(startLoss, lossSeries(h.series))),
    );
    // Loss is sparse per bucket (a few probes each): segment it over windows of buckets
    // (about 48 over the range) so a sustained loss reads as a few long segments.
    const w = Math.max(1, Math.ceil(s.bucketCount / 48));
    const windowLoss = new Float64Array(Math.ceil(s.bucketCount / w));
    for (let k = 0; k < windowLoss.length; k++) {
      let sent = 0;
      let lost = 0;
      for (let b = k * w; b < Math.min(s.bucketCount, (k + 1) * w); b++) {
        sent += start.series.sent[b];
        lost += start.series.lost[b];
      }
      windowLoss[k] = sent ? (lost / sent) * 100 : NaN;
    }
    const segments = ctx.stats
      .segmentsAbove(windowLoss, LossyBucketPercent, 1, SegmentMaxGap)
      .map((g) => ({ start: g.start * w, end: Math.min(s.bucketCount, g.end * w) }));
    r.WisdomSegments = [timeSegments(s, segments, 'AverageLostPackets', startLoss)];
    // When did it begin? The best single split of the loss series into two levels (the mean
    // shift kernel), reported when the range starts clean and the loss sets in later.
    const began = lossOnset(ctx, startLoss);
    if (began !== undefined) {
      r.Description.splice(1, 0, `The loss began around ${new Date(began).toISOString().replace('T', ' ').slice(0, 16)} UTC; before it, the path lost almost nothing.`);
      r.Stats.push({ Key: 'LossBegan', Name: 'Loss began', Value: new Date(began).toISOString(), Measure: '', Important: false });
    }
    return r;
  },
};

export const findRedHerringHops: WisdomTest = {
  id: WisdomTestId.WAN_FindRedHerringHops,
  title: 'Red herring hops',
  category: TestCategory.WAN,
  page: 'wan-red-herring-hops.md',
  run(ctx) {
    const s = ctx.series;
    const { redHerrings } = lossFindings(ctx);
    const latency = latencyRedHerrings(ctx);
    const flagged = new Map<number, { h: PathHop; loss: boolean; latency: boolean }>();
    for (const h of redHerrings) flagged.set(h.series.hop, { h, loss: true, latency: false });
    for (const h of latency) flagged.set(h.series.hop, { h, loss: flagged.get(h.series.hop)?.loss ?? false, latency: true });
    if (flagged.size === 0) {
      return result(this, WisdomResultEnum.NotRelevant, 'No red herring hops', ['No hop shows loss or latency that the hops after it do not show.']);
    }
    const list = [...flagged.values()].sort((a, b) => a.h.series.hop - b.h.series.hop);
    const lines = list.map(({ h, loss, latency: lat }) =>
      loss && lat
        ? `Hop ${hopLabel(h.series)} shows ${pct(h.figures.lossPercent)} loss and ${h.figures.medianLatency.toFixed(1)} ms that the hops after it do not show.`
        : loss
          ? `Hop ${hopLabel(h.series)} shows ${pct(h.figures.lossPercent)} loss that does not carry on to the hops after it.`
          : `Hop ${hopLabel(h.series)} answers in ${h.figures.medianLatency.toFixed(1)} ms, slower than the hops after it.`,
    );
    const r = result(this, WisdomResultEnum.Pass, `${list.length === 1 ? 'One hop is' : `${list.length} hops are`} a red herring`, [
      ...lines,
      'This is how the router handles traceroute packets addressed to itself (it rate limits or deprioritises its own ICMP answers), not a problem of the traffic passing through it.',
    ]);
    r.WisdomHosts = list.map(({ h, loss, latency: lat }) => host(h.series, s.targetId, NaN, { loss, latency: lat }));
    return r;
  },
};

/** Hops whose latency floor is well above every later answering hop's: slow ICMP answers. */
export function latencyRedHerrings(ctx: TestContext): PathHop[] {
  const out: PathHop[] = [];
  for (const h of pathHops(ctx)) {
    if (!h.figures.answered || h.series.hop === ctx.series.targetHop) continue;
    const later = answeringAfter(ctx, h.series.hop);
    if (later.length === 0) continue;
    const laterMax = Math.max(...later.map((l) => l.figures.medianLatency).filter(Number.isFinite));
    const mine = h.figures.medianLatency;
    if (Number.isFinite(laterMax) && mine - laterMax > Math.max(RedHerringLatencyMs, laterMax * RedHerringLatencyShare)) out.push(h);
  }
  return out;
}

/** The bucket start where loss set in, when the series splits into ~none then sustained loss. */
export function lossOnset(ctx: TestContext, loss: Float64Array): number | undefined {
  const finiteAt: number[] = [];
  for (let b = 0; b < loss.length; b++) if (Number.isFinite(loss[b])) finiteAt.push(b);
  const shift = ctx.stats.meanShift(loss, Math.max(3, Math.floor(finiteAt.length / 20)));
  if (shift.index < 0 || !(shift.before < LossPercent / 4) || !(shift.after >= LossPercent)) return undefined;
  return ctx.series.start + finiteAt[shift.index] * ctx.series.bucketMs;
}
