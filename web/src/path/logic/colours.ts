// The Path view's colours (issue 44 item 2; docs/path-view.md "Colours"): a node by the loss
// that starts at it (the grid's and Insights' rule, so a silent or rate-limiting router is never
// red), an edge by the latency added across it, its width by how often it was seen.
import type { PathNode } from '../../../../server/contract/path-view';
import { LatencyColours, LossColour, MutedLossColour } from '../../target/colours';

/** Loss at or above this (percent) that starts at a node is drawn as heavy loss. */
export const HeavyLossPercent = 10;
/** Added latency (ms) at or above which an edge is drawn as warning / bad. */
export const EdgeWarnMs = 20;
export const EdgeBadMs = 80;

export type NodeTone = 'loss' | 'heavyLoss' | 'muted' | 'plain';

export function nodeTone(n: Pick<PathNode, 'LossStartPercent' | 'MutedLoss'>): NodeTone {
  if (n.LossStartPercent !== null && n.LossStartPercent > 0) return n.LossStartPercent >= HeavyLossPercent ? 'heavyLoss' : 'loss';
  if (n.MutedLoss) return 'muted';
  return 'plain';
}

export const NodeToneColour: Record<NodeTone, { fill: string; stroke: string }> = {
  heavyLoss: { fill: '#fecdd3', stroke: LossColour },
  loss: { fill: '#ffe4e6', stroke: '#fb7185' },
  muted: { fill: '#f1f5f9', stroke: MutedLossColour },
  plain: { fill: '#ffffff', stroke: '#64748b' },
};

export function edgeColour(addedLatencyMs: number | null): string {
  if (addedLatencyMs === null) return '#cbd5e1';
  if (addedLatencyMs >= EdgeBadMs) return LatencyColours.Bad;
  if (addedLatencyMs >= EdgeWarnMs) return LatencyColours.Warn;
  return '#94a3b8';
}

/** 1.5 px for an edge seen once, up to 7 px for the most seen edge of the graph. */
export function edgeWidth(weight: number, maxWeight: number): number {
  if (maxWeight <= 1) return 1.5;
  return 1.5 + 5.5 * (Math.log1p(weight) / Math.log1p(maxWeight));
}
