// The target's own row: does it answer (Target_IsTargetReachable), how much does its
// latency vary (Target_LatencyVariability), is it good enough for voice and video
// (Target_IsQualityOfServiceAcceptable, with a MOS estimate from the E-model).
import { TestCategory, WisdomResultEnum, WisdomTestId } from '../../contract/insights.js';
import { QoS, UnreachableLossPercent, VariabilityJitterShare, VariabilityMs, VariabilitySpreadShare } from '../thresholds.js';
import { pathHops, targetHop } from '../path.js';
import { host, hopLabel, ms, pct, result, stat, type WisdomTest } from '../result.js';

export const isTargetReachable: WisdomTest = {
  id: WisdomTestId.Target_IsTargetReachable,
  title: 'Is the target reachable',
  category: TestCategory.Target,
  page: 'target-reachable.md',
  run(ctx) {
    const s = ctx.series;
    const t = targetHop(ctx);
    if (t && t.figures.lossPercent < UnreachableLossPercent) {
      return result(this, WisdomResultEnum.Pass, 'The target is reachable', [`The target ${s.targetName} answered ${t.figures.sent - t.figures.lost} of ${t.figures.sent} probes.`]);
    }
    const lastAnswering = [...pathHops(ctx)].reverse().find((h) => h.figures.answered && h.series.hop !== s.targetHop);
    const r = result(this, WisdomResultEnum.Fail_Target_NotReachable, 'The target is not reachable', [
      t ? `The target ${s.targetName} answered ${t.figures.sent - t.figures.lost} of ${t.figures.sent} probes.` : `The target ${s.targetName} did not answer any probe in this range.`,
      lastAnswering
        ? `The last hop that answered is ${hopLabel(lastAnswering.series)}: the path stops after it, or the target does not answer these probes.`
        : 'No hop of the route answered either.',
    ]);
    if (lastAnswering) r.WisdomHosts = [host(lastAnswering.series, s.targetId)];
    return r;
  },
};

export const latencyVariability: WisdomTest = {
  id: WisdomTestId.Target_LatencyVariability,
  title: 'Target latency variability',
  category: TestCategory.Target,
  page: 'target-latency-variability.md',
  run(ctx) {
    const s = ctx.series;
    const t = targetHop(ctx);
    if (!t || !t.figures.answered) return result(this, WisdomResultEnum.NotRelevant, 'Latency variability not measured', ['The target did not answer.']);
    const d = ctx.stats.describe(t.series.latency);
    const iqr = d.q3 - d.q1;
    const jitter = t.figures.jitter;
    const jitterLimit = Math.max(VariabilityMs, VariabilityJitterShare * d.median);
    const limit = Math.max(VariabilityMs, VariabilitySpreadShare * d.median);
    const stats = [
      stat('MedianLatency', 'Median latency', d.median, 'ms', true),
      stat('Jitter', 'Jitter', jitter, 'ms', true),
      stat('InterquartileRange', 'Interquartile range', iqr, 'ms'),
      stat('MedianAbsDev', 'Median absolute deviation', d.medianAbsDev, 'ms'),
    ];
    if (!(jitter > jitterLimit || iqr > limit)) {
      return result(this, WisdomResultEnum.Pass, 'Target latency is steady', [`Jitter ${ms(jitter)} is within ${ms(jitterLimit)} and the spread of latency ${ms(iqr)} within ${ms(limit)}.`], stats);
    }
    const r = result(this, WisdomResultEnum.Fail_Target_LatencyVariability, 'Target latency varies a lot', [
      `The target's latency varies: jitter ${ms(jitter)}, interquartile range ${ms(iqr)} around a median of ${ms(d.median)} (limits ${ms(jitterLimit)} and ${ms(limit)}).`,
      'Variable latency hurts interactive traffic (voice, video, games) even without loss.',
    ], stats);
    r.WisdomHosts = [host(t.series, s.targetId, 1)];
    return r;
  },
};

/** Mean opinion score from the simplified E-model (one-way latency = RTT / 2). */
export function estimateMos(rttMs: number, jitterMs: number, lossPercent: number): number {
  const effective = rttMs / 2 + 2 * jitterMs + 10;
  let r = 93.2 - (effective < 160 ? effective / 40 : (effective - 120) / 10);
  r -= 2.5 * lossPercent;
  r = Math.max(0, Math.min(100, r));
  return 1 + 0.035 * r + 0.000007 * r * (r - 60) * (100 - r);
}

export const isQualityOfServiceAcceptable: WisdomTest = {
  id: WisdomTestId.Target_IsQualityOfServiceAcceptable,
  title: 'Is the quality of service acceptable',
  category: TestCategory.Target,
  page: 'target-quality-of-service.md',
  run(ctx) {
    const s = ctx.series;
    const t = targetHop(ctx);
    if (!t || !t.figures.answered) return result(this, WisdomResultEnum.NotRelevant, 'Quality of service not measured', ['The target did not answer.']);
    const f = t.figures;
    const mos = estimateMos(f.meanLatency, Number.isFinite(f.jitter) ? f.jitter : 0, f.lossPercent);
    const stats = [
      stat('Latency', 'Average latency', f.meanLatency, 'ms', true),
      stat('Jitter', 'Jitter', f.jitter, 'ms', true),
      stat('PacketLoss', 'Packet loss', f.lossPercent, '%', true),
      stat('MOS', 'Estimated MOS', mos, '', true, 2),
    ];
    const problems: string[] = [];
    if (f.meanLatency > QoS.videoLatencyMs) problems.push(`latency ${ms(f.meanLatency)} is above ${QoS.videoLatencyMs} ms (voice and video)`);
    else if (f.meanLatency > QoS.latencyMs) problems.push(`latency ${ms(f.meanLatency)} is above ${QoS.latencyMs} ms (voice)`);
    if (f.jitter > QoS.jitterMs) problems.push(`jitter ${ms(f.jitter)} is above ${QoS.jitterMs} ms`);
    if (f.lossPercent > QoS.lossPercent) problems.push(`packet loss ${pct(f.lossPercent)} is above ${QoS.lossPercent}%`);
    if (problems.length === 0 && mos >= QoS.minMos) {
      return result(this, WisdomResultEnum.Pass, 'Quality of service is acceptable', [`Latency, jitter and loss suit voice and video calls (estimated MOS ${mos.toFixed(2)}).`], stats);
    }
    const r = result(this, WisdomResultEnum.Fail_Target_PoorQualityOfService, 'Poor quality of service', [
      `Voice and video calls to this target would suffer: ${problems.join('; ') || `the estimated MOS is ${mos.toFixed(2)}`}.`,
      `Estimated MOS ${mos.toFixed(2)} of 5 (${QoS.minMos} or more is good).`,
    ], stats);
    r.WisdomHosts = [host(t.series, s.targetId, 1)];
    return r;
  },
};
