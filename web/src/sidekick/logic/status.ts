// A Sidekick card's status (spec 3 section 2.5: -1 none, 0 good, 1 warn, otherwise bad) from the
// target's most recent minute of data, with the configuration's Warn/Bad latency (spec 3 section 9:
// 100 / 250 ms by default) and packet loss. Pure, so it is unit-tested beside.
import type { DataPoint } from '../../../../server/contract/data';
import { SidekickStatus, SidekickStatusColour } from '../../../../server/contract/sidekick';
import { isMeasuredLatency } from '../../target/logic/hopStatus';

/** The minute the status looks at (the stats period of spec 3 section 4.3 is 60 s). */
export const StatusWindowMs = 60_000;
/** Loss of at least this much is a warning, and ten times it is bad (a path is good at 0 %). */
export const WarnLossPercent = 2;
export const BadLossPercent = 20;

export function targetStatus(points: readonly DataPoint[], nowMs: number, warnMs = 100, badMs = 250): number {
  let sent = 0;
  let lost = 0;
  let latencySum = 0;
  let latencyCount = 0;
  for (const p of points) {
    if (Date.parse(p.Period) < nowMs - StatusWindowMs) continue;
    sent += p.LatencyCount;
    lost += p.LostPacketCount;
    if (isMeasuredLatency(p.AverageLatency)) {
      const answered = Math.max(1, p.LatencyCount - p.LostPacketCount);
      latencySum += p.AverageLatency * answered;
      latencyCount += answered;
    }
  }
  if (sent === 0) return SidekickStatus.None;
  const loss = (lost / sent) * 100;
  if (latencyCount === 0 || loss >= BadLossPercent) return SidekickStatus.Bad;
  const avg = latencySum / latencyCount;
  if (avg >= badMs) return SidekickStatus.Bad;
  if (avg >= warnMs || loss >= WarnLossPercent) return SidekickStatus.Warn;
  return SidekickStatus.Good;
}

/** The colour of a status code; none has no colour (grey). */
export function statusColour(code: number): string {
  if (code === SidekickStatus.None) return '#c8c8c8';
  if (code === SidekickStatus.Good) return SidekickStatusColour.Good;
  if (code === SidekickStatus.Warn) return SidekickStatusColour.Warn;
  return SidekickStatusColour.Bad;
}

export function statusText(code: number): string {
  return code === SidekickStatus.None ? 'No data yet' : code === SidekickStatus.Good ? 'Good' : code === SidekickStatus.Warn ? 'Warning' : 'Bad';
}

/** "3 minutes", "1 hour 5 minutes": how long Sidekick has collected. */
export function collectedDuration(startIso: string | null, nowMs: number): string {
  if (!startIso) return '0 minutes';
  const minutes = Math.max(0, Math.floor((nowMs - Date.parse(startIso)) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  return [d ? part(d, 'day') : '', h ? part(h, 'hour') : '', d && !h && !m ? '' : part(m, 'minute')].filter(Boolean).join(' ');
}

/** Spec 3 section 5: fewer than 10 minutes give no meaningful output. */
export function hasEnoughData(startIso: string | null, nowMs: number, minimumMs: number): boolean {
  return !!startIso && nowMs - Date.parse(startIso) >= minimumMs;
}
