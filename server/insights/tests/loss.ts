// Where loss starts: loss at a hop that carries on to every later answering hop is loss on
// the path (WAN_SustainedPacketLoss); loss at a hop that does not carry on is that router's
// ICMP handling (rate limiting its own answers), a red herring (WAN_FindRedHerringHops).
import { TestCategory, WisdomResultEnum, WisdomTestId } from '../../contract/insights.js';
import { CarryOnShare, LossPercent, LossyBucketPercent, RedHerringLatencyMs, RedHerringLatencyShare, SegmentMaxGap, SegmentMinRun } from '../thresholds.js';
import { answeringAfter, intermediateHops, pathHops, type PathHop } from '../path.js';
import { host, hopLabel, pct, result, stat, timeSegments, type WisdomTest } from '../result.js';
import { lossSeries, type TestContext } from '../series.js';

/** Loss at `h` carries on when every later answering hop loses at least a share of it. */
function carriesOn(ctx: TestContext, h: PathHop): boolean {
  const need = Math.max(LossPercent * CarryOnShare, h.figures.lossPercent * CarryOnShare);
  return answeringAfter(ctx, h.series.hop).every((later) => later.figures.lossPercent >= need);
}

export interface LossFindings {
  /** The first hop whose loss carries on to the end of the path; undefined when none. */
  start: PathHop | undefined;
  /** Answering hops with loss that does not carry on. */
  redHerrings: PathHop[];
}

export function lossFindings(ctx: TestContext): LossFindings {
  const answering = pathHops(ctx).filter((h) => h.figures.answered);
  const lossy = answering.filter((h) => h.figures.lossPercent >= LossPercent);
  const start = lossy.find((h) => carriesOn(ctx, h));
  const redHerrings = lossy.filter((h) => !carriesOn(ctx, h));
  return { start, redHerrings };
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
    const segments = ctx.stats.segmentsAbove(startLoss, LossyBucketPercent, SegmentMinRun, SegmentMaxGap);
    r.WisdomSegments = [timeSegments(s, segments, 'AverageLostPackets', startLoss)];
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
