// The grid's Graph column as a glide-data-grid custom cell: the hop's latency minimum,
// average and maximum on the shared scale with the packet-loss bar (full at 30%), coloured
// by Warn/Bad; special codes show "*", "N/A" or "?". What to draw comes from
// logic/graphCell; this file only paints it.
import { GridCellKind, type CustomCell, type CustomRenderer } from '@glideapps/glide-data-grid';
import { graphCellDrawing, type GraphCellInput, type GraphCellThresholds } from './logic/graphCell';
import { LatencyColours, LossFill, LossColour, MutedLossColour } from './colours';

export interface HopGraphData extends GraphCellInput, GraphCellThresholds {
  kind: 'hop-graph';
}
export type HopGraphCell = CustomCell<HopGraphData>;

const Pad = 6;

export function hopGraphCell(data: Omit<HopGraphData, 'kind'>): HopGraphCell {
  const pl = data.PL ?? 0;
  return {
    kind: GridCellKind.Custom,
    allowOverlay: false,
    copyData: `${data.Average ?? ''} ms, ${pl}% loss`,
    data: { kind: 'hop-graph', ...data },
  };
}

export const hopGraphRenderer: CustomRenderer<HopGraphCell> = {
  kind: GridCellKind.Custom,
  isMatch: (c): c is HopGraphCell => (c.data as { kind?: string }).kind === 'hop-graph',
  draw: (args, cell) => {
    const { ctx, rect } = args;
    const d = cell.data;
    const x0 = rect.x + Pad;
    const w = Math.max(1, rect.width - 2 * Pad);
    const mid = rect.y + rect.height / 2;
    const drawing = graphCellDrawing(d, d, w);

    // Scale guides: quarters, and the Warn / Bad thresholds when they are on the scale.
    ctx.save();
    ctx.strokeStyle = 'rgba(100, 116, 139, 0.18)';
    ctx.lineWidth = 1;
    for (let q = 1; q < 4; q++) {
      const gx = Math.round(x0 + (w * q) / 4) + 0.5;
      ctx.beginPath();
      ctx.moveTo(gx, rect.y + 3);
      ctx.lineTo(gx, rect.y + rect.height - 3);
      ctx.stroke();
    }
    for (const [ms, colour] of [
      [d.warnMs, LatencyColours.Warn],
      [d.badMs, LatencyColours.Bad],
    ] as const) {
      if (ms > 0 && ms < d.scaleMaxMs) {
        const tx = Math.round(x0 + (ms / d.scaleMaxMs) * w) + 0.5;
        ctx.strokeStyle = colour;
        ctx.globalAlpha = 0.45;
        ctx.setLineDash([2, 3]);
        ctx.beginPath();
        ctx.moveTo(tx, rect.y + 2);
        ctx.lineTo(tx, rect.y + rect.height - 2);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.globalAlpha = 1;
      }
    }

    // Packet loss: a red bar from the left, full width at 30% loss.
    if (drawing.lossWidthPx > 0) {
      ctx.fillStyle = LossFill;
      ctx.fillRect(x0, rect.y + 3, drawing.lossWidthPx, rect.height - 6);
      ctx.fillStyle = LossColour;
      ctx.fillRect(x0, rect.y + rect.height - 5, drawing.lossWidthPx, 2);
    }

    if (drawing.kind === 'text') {
      // A silent router's "*" is grey like its loss (logic/mutedLoss), not the red of a loss.
      ctx.fillStyle = drawing.text === '*' && !d.lossMuted ? LossColour : drawing.text === '*' ? MutedLossColour : '#64748b';
      ctx.font = `600 13px ${args.theme.fontFamily}`;
      ctx.textBaseline = 'middle';
      ctx.fillText(drawing.text, x0 + 4, mid);
    } else if (drawing.kind === 'latency') {
      const colour = LatencyColours[drawing.colour];
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      ctx.lineWidth = 2;
      // min-max whisker
      ctx.beginPath();
      ctx.moveTo(x0 + drawing.minX, mid);
      ctx.lineTo(x0 + drawing.maxX, mid);
      ctx.stroke();
      ctx.lineWidth = 1.5;
      for (const ex of [drawing.minX, drawing.maxX]) {
        ctx.beginPath();
        ctx.moveTo(x0 + ex, mid - 4);
        ctx.lineTo(x0 + ex, mid + 4);
        ctx.stroke();
      }
      // average marker
      ctx.beginPath();
      ctx.arc(x0 + drawing.avgX, mid, 4.5, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 1.5;
      ctx.stroke();
      if (drawing.overflow) {
        // Off the scale: an arrow at the right edge.
        const ax = x0 + w;
        ctx.fillStyle = colour;
        ctx.beginPath();
        ctx.moveTo(ax, mid);
        ctx.lineTo(ax - 7, mid - 5);
        ctx.lineTo(ax - 7, mid + 5);
        ctx.closePath();
        ctx.fill();
      }
    }
    ctx.restore();
  },
};

/** The Graph column header: the latency scale in ms with tick labels, or the fixed-scale note. */
export function drawScaleHeader(ctx: CanvasRenderingContext2D, rect: { x: number; y: number; width: number; height: number }, scaleMaxMs: number, fixed: boolean, font: string) {
  const x0 = rect.x + Pad;
  const w = Math.max(1, rect.width - 2 * Pad);
  ctx.save();
  ctx.fillStyle = '#475569';
  ctx.font = `500 11px ${font}`;
  ctx.textBaseline = 'middle';
  const y = rect.y + rect.height - 13;
  const label = (v: number) => (scaleMaxMs < 4 ? v.toFixed(2) : scaleMaxMs < 10 ? v.toFixed(1) : String(Math.round(v)));
  // Quarters, or halves when the column is too narrow for five labels (a small window).
  const parts = w < 240 ? 2 : 4;
  for (let q = 0; q <= parts; q++) {
    const tx = x0 + (w * q) / parts;
    const text = q === parts ? `${label(scaleMaxMs)} ms` : label((scaleMaxMs * q) / parts);
    const tw = ctx.measureText(text).width;
    const left = q === 0 ? tx : q === parts ? tx - tw : tx - tw / 2;
    ctx.fillText(text, left, y);
    ctx.fillRect(Math.round(tx), rect.y + rect.height - 5, 1, 5);
  }
  if (fixed) {
    ctx.fillStyle = '#94a3b8';
    ctx.font = `italic 10px ${font}`;
    ctx.fillText('scale fixed in Settings', x0 + w / 4 + 4, rect.y + 8);
  }
  ctx.restore();
}
