// Each hop's figures over the Path view's range (loss, average latency, its hosts), from the
// trace's DataPointBuckets (the strip's own call) and its hop details: the same sums the grid's
// hop rows make (lost / sent; the average of the answers), without reading the range again. Pure.
import type { DataPointBuckets } from '../contract/data.js';
import type { HopDetails } from '../contract/hop-details.js';
import type { TraceHop } from './graph.js';

export function hopsOfBuckets(buckets: DataPointBuckets, details: ReadonlyMap<number, HopDetails>, names: ReadonlyMap<number, string>): TraceHop[] {
  const sent: number[] = [];
  const lost: number[] = [];
  const latencySum: number[] = [];
  const answers: number[] = [];
  for (const p of buckets.Points) {
    const n = Math.max(p.RouteHostSentCount.length, p.RouteHostLatencies.length);
    for (let i = 0; i < n; i++) {
      const s = p.RouteHostSentCount[i] ?? 0;
      const l = p.RouteHostLostCount[i] ?? 0;
      sent[i] = (sent[i] ?? 0) + s;
      lost[i] = (lost[i] ?? 0) + l;
      const avg = p.RouteHostLatencies[i];
      if (avg !== null && avg !== undefined && avg >= 0 && s - l > 0) {
        latencySum[i] = (latencySum[i] ?? 0) + avg * (s - l);
        answers[i] = (answers[i] ?? 0) + (s - l);
      }
    }
  }
  const deepest = Math.max(sent.length, ...details.keys());
  const out: TraceHop[] = [];
  for (let hop = 1; hop <= deepest; hop++) {
    const i = hop - 1;
    const s = sent[i] ?? 0;
    const l = lost[i] ?? 0;
    out.push({
      hop,
      // Nothing sent in the range: no loss to judge (NaN), as the grid reads it.
      lossPercent: s > 0 ? (l / s) * 100 : NaN,
      answered: s > 0 && l < s,
      latencyMs: answers[i] ? latencySum[i] / answers[i] : null,
      hosts: details.get(hop)?.Hosts ?? [],
      name: names.get(hop) ?? '',
    });
  }
  return out;
}
