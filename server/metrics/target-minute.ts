// Per target, the samples of its last minute at the target hop (the last hop of each
// round), fed by ingest commits: what /metrics reports as loss, latency and jitter gauges.
import { LatencyCode, isSpecialLatency } from '../../engine/latency-codes.js';
import { lastHopOfRounds, type CommittedSamples } from '../alerts/evaluator.js';

export const WindowMs = 60_000;
/** A target with no sample for this long leaves /metrics (closed or paused). */
export const ForgetMs = 5 * 60_000;

interface Track {
  time: number[];
  latency: number[];
  hops: number;
  latest: number;
  lastSeen: number;
}

export interface TargetFigures {
  sessionId: number;
  lossPercent: number;
  avg: number;
  min: number;
  max: number;
  current: number;
  jitter: number;
  hops: number;
}

export class TargetMinutes {
  private readonly tracks = new Map<number, Track>();
  routeChanges = new Map<number, number>();

  committed(sessionId: number, s: CommittedSamples, now = Date.now()): void {
    let t = this.tracks.get(sessionId);
    if (!t) this.tracks.set(sessionId, (t = { time: [], latency: [], hops: 0, latest: NaN, lastSeen: now }));
    t.lastSeen = now;
    for (const r of lastHopOfRounds(s)) {
      if (isSpecialLatency(r.latency) && r.latency !== LatencyCode.Timeout) continue;
      t.time.push(r.time);
      t.latency.push(r.latency);
      t.hops = r.hop;
      t.latest = r.latency;
    }
    this.trim(t);
  }

  routeChanged(sessionId: number): void {
    this.routeChanges.set(sessionId, (this.routeChanges.get(sessionId) ?? 0) + 1);
  }

  private trim(t: Track): void {
    const newest = t.time.length ? t.time[t.time.length - 1] : 0;
    let drop = 0;
    while (drop < t.time.length && t.time[drop] < newest - WindowMs) drop++;
    if (drop) {
      t.time.splice(0, drop);
      t.latency.splice(0, drop);
    }
  }

  figures(now = Date.now()): TargetFigures[] {
    const out: TargetFigures[] = [];
    for (const [sessionId, t] of this.tracks) {
      if (now - t.lastSeen > ForgetMs) {
        this.tracks.delete(sessionId);
        continue;
      }
      const answered = t.latency.filter((v) => v !== LatencyCode.Timeout);
      const lost = t.latency.length - answered.length;
      let jitter = NaN;
      if (answered.length > 1) {
        let d = 0;
        for (let i = 1; i < answered.length; i++) d += Math.abs(answered[i] - answered[i - 1]);
        jitter = d / (answered.length - 1);
      }
      out.push({
        sessionId,
        lossPercent: t.latency.length ? (100 * lost) / t.latency.length : NaN,
        avg: answered.length ? answered.reduce((a, b) => a + b, 0) / answered.length : NaN,
        min: answered.length ? Math.min(...answered) : NaN,
        max: answered.length ? Math.max(...answered) : NaN,
        current: t.latest === LatencyCode.Timeout ? NaN : t.latest,
        jitter,
        hops: t.hops,
      });
    }
    return out;
  }
}
