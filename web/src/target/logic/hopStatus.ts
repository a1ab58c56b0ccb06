// A hop's health as the grid and the graphs colour it (spec 2 sections 3, 4 and 9): the
// status from its average against the Warn and Bad thresholds, the colour class of a latency,
// the packet-loss bar, and the cell text of a latency (special codes via the contract).
import { isSpecialLatency, latencyDisplayText } from '../../../../server/contract/latency';
import { HopStatus, PacketLossBarFullPercent } from './constants';

/** A measured latency in ms: a finite number that is not a special code. */
export function isMeasuredLatency(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && !isSpecialLatency(value);
}

/** Hop status: 2 if average >= Bad, 1 if >= Warn, 0 otherwise, -1 when there is no data. */
export function hopStatus(averageMs: number | null | undefined, warnMs: number, badMs: number): HopStatus {
  if (!isMeasuredLatency(averageMs)) return HopStatus.NoData;
  if (averageMs >= badMs) return HopStatus.Bad;
  if (averageMs >= warnMs) return HopStatus.Warn;
  return HopStatus.Good;
}

export type LatencyColourClass = 'Good' | 'Warn' | 'Bad';

/** Graph colour of a latency: Good below Warn, Warn below Bad, otherwise Bad; null if not measured. */
export function latencyColourClass(latencyMs: number | null | undefined, warnMs: number, badMs: number): LatencyColourClass | null {
  if (!isMeasuredLatency(latencyMs)) return null;
  if (latencyMs < warnMs) return 'Good';
  if (latencyMs < badMs) return 'Warn';
  return 'Bad';
}

/** Loss percent = lost count / latency count x 100 (0 with nothing counted). */
export function lossPercent(lostCount: number, latencyCount: number): number {
  return latencyCount > 0 ? (lostCount / latencyCount) * 100 : 0;
}

/** How much of the Graph cell's packet-loss bar to fill: 0..1, full at 30% loss. */
export function packetLossBarFraction(lossPercentValue: number): number {
  if (!(lossPercentValue > 0)) return 0;
  return Math.min(lossPercentValue / PacketLossBarFullPercent, 1);
}

/**
 * Text of a latency cell (Avg, Min, Max, Cur): the value, "*" for a timeout, "N/A" or "?"
 * for the other special codes (one definition, server/contract/latency), empty with no data.
 */
export function latencyCellText(value: number | null | undefined, digits?: number): string {
  if (typeof value !== 'number' || Number.isNaN(value)) return '';
  return latencyDisplayText(value, digits);
}
