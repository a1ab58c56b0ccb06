// The console's latency colours (Good below Warn, Warn below Bad, otherwise Bad) and the
// packet-loss red, shared by the grid's Graph cell, the legend and the timeline graphs.
import type { LatencyColourClass } from './logic/hopStatus';

export const LatencyColours: Record<LatencyColourClass, string> = { Good: '#16a34a', Warn: '#f59e0b', Bad: '#dc2626' };
export const LossColour = '#e11d48';
export const LossFill = 'rgba(225, 29, 72, 0.28)';
/** Loss that is not loss on the path (a silent or rate-limiting router): grey, not red. */
export const MutedLossColour = '#94a3b8';
export const MutedLossFill = 'rgba(148, 163, 184, 0.45)';
export const WarnBand = 'rgba(245, 158, 11, 0.10)';
export const BadBand = 'rgba(220, 38, 38, 0.09)';
export const LatencyLine = '#0f766e';
export const LatencyBand = 'rgba(13, 148, 136, 0.16)';
export const CommentColour = '#6366f1';
