// What the grid's Graph column draws for one hop (spec 2 sections 2, 3 and 9): the latency
// minimum-average-maximum on the shared latency scale, coloured by the average against Warn
// and Bad, with the packet-loss bar (full at 30%); a special code shows its text instead
// ("*" timeout, "N/A" or "?"). Positions are in px from the cell's left edge.
import { isSpecialLatency, latencyDisplayText } from '../../../../server/contract/latency';
import { type LatencyColourClass, isMeasuredLatency, latencyColourClass, packetLossBarFraction } from './hopStatus';

export interface GraphCellInput {
  Minimum: number | null | undefined;
  Average: number | null | undefined;
  Maximum: number | null | undefined;
  /** Packet loss percent (PL). */
  PL: number | null | undefined;
  /** The hop's loss is not loss on the path (logic/mutedLoss): no loss bar. */
  lossMuted?: boolean;
}

export interface GraphCellThresholds {
  scaleMaxMs: number;
  warnMs: number;
  badMs: number;
}

export type GraphCellDrawing =
  | { kind: 'empty'; lossWidthPx: number }
  | { kind: 'text'; text: string; lossWidthPx: number }
  | {
      kind: 'latency';
      minX: number;
      avgX: number;
      maxX: number;
      /** The maximum lies beyond the scale (draw an overflow marker at the right edge). */
      overflow: boolean;
      colour: LatencyColourClass;
      lossWidthPx: number;
    };

export function graphCellDrawing(row: GraphCellInput, scale: GraphCellThresholds, widthPx: number): GraphCellDrawing {
  const lossWidthPx = row.lossMuted ? 0 : packetLossBarFraction(row.PL ?? 0) * widthPx;
  const average = row.Average;
  if (typeof average === 'number' && isSpecialLatency(average)) {
    return { kind: 'text', text: latencyDisplayText(average), lossWidthPx };
  }
  if (!isMeasuredLatency(average) || !(scale.scaleMaxMs > 0)) return { kind: 'empty', lossWidthPx };
  const x = (ms: number) => Math.min(Math.max(ms, 0) / scale.scaleMaxMs, 1) * widthPx;
  const min = isMeasuredLatency(row.Minimum) ? Math.min(row.Minimum, average) : average;
  const max = isMeasuredLatency(row.Maximum) ? Math.max(row.Maximum, average) : average;
  return {
    kind: 'latency',
    minX: x(min),
    avgX: x(average),
    maxX: x(max),
    overflow: max > scale.scaleMaxMs,
    colour: latencyColourClass(average, scale.warnMs, scale.badMs)!,
    lossWidthPx,
  };
}
