// One chart of the Target Details pop-up on uPlot: minutes from the range start on x (the
// charts' base unit; at most 50 divisions), the series given. A box plot draws its quartile
// box as a band between Q1 and Q3, the whiskers (Lower, Upper), median and mean as lines.
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { useEffect, useRef } from 'react';

const Colours = ['#0d9488', '#6366f1', '#f59e0b', '#ef4444', '#0ea5e9', '#64748b'];

export interface ChartSpec {
  title: string;
  x: number[];
  series: { label: string; values: (number | null)[]; dash?: boolean }[];
  height: number;
  /** Fill between two series indices (the box of a box plot). */
  band?: [number, number];
}

export function WisdomChartView({ spec, width }: { spec: ChartSpec; width: number }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const opts: uPlot.Options = {
      title: spec.title,
      width,
      height: spec.height,
      scales: { x: { time: false } },
      axes: [{ label: 'minutes' }, {}],
      series: [
        { label: 'min' },
        ...spec.series.map((s, i) => ({ label: s.label, stroke: Colours[i % Colours.length], width: 1.5, dash: s.dash ? [4, 4] : undefined, spanGaps: false })),
      ],
      bands: spec.band ? [{ series: [spec.band[1] + 1, spec.band[0] + 1], fill: 'rgba(13, 148, 136, 0.18)' }] : undefined,
    };
    const data = [spec.x, ...spec.series.map((s) => s.values)] as uPlot.AlignedData;
    const plot = new uPlot(opts, data, el.current);
    return () => plot.destroy();
  }, [spec, width]);
  return <div ref={el} className="wisdom-chart" data-testid="wisdom-chart" />;
}
