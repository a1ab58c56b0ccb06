// A card's time graph (spec 3 section 9: 150 px): the final hop's average latency over the
// last 10 minutes and its packet loss, on uPlot like the target window's graphs.
import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { useEffect, useMemo, useRef } from 'react';
import type { DataPoint } from '../../../server/contract/data';
import { SidekickGraphHeight } from '../../../server/contract/sidekick';
import { LatencyLine, LossColour } from '../target/colours';
import { isMeasuredLatency, lossPercent } from '../target/logic/hopStatus';
import { RecentBucketSeconds, RecentWindowMs } from './useRecentBuckets';

/** `endMs`: when the points were loaded; the graph shows the 10 minutes up to it. */
export function SidekickTimeGraph({ points, label, endMs }: { points: DataPoint[]; label: string; endMs: number }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot>();
  const end = useRef(endMs);
  end.current = endMs;
  const data = useMemo(() => {
    const xs: number[] = [];
    const avg: (number | null)[] = [];
    const loss: (number | null)[] = [];
    for (const p of points) {
      xs.push(Date.parse(p.Period) / 1000 + RecentBucketSeconds / 2);
      avg.push(isMeasuredLatency(p.AverageLatency) ? p.AverageLatency : null);
      loss.push(p.LatencyCount > 0 && p.LostPacketCount > 0 ? lossPercent(p.LostPacketCount, p.LatencyCount) : null);
    }
    return [xs, avg, loss] as uPlot.AlignedData;
  }, [points]);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: SidekickGraphHeight,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true, range: () => [(end.current - RecentWindowMs) / 1000, end.current / 1000] }, ms: { range: (_u, _min, max) => [0, Math.max(1, (max ?? 1) * 1.1)] }, pct: { range: [0, 100] } },
      axes: [{}, { scale: 'ms', label: 'Latency (ms)', size: 50 }, { scale: 'pct', side: 1, show: false }],
      series: [
        {},
        { label: 'Latency (ms)', scale: 'ms', stroke: LatencyLine, width: 1.5, spanGaps: false },
        { label: 'Packet Loss %', scale: 'pct', stroke: LossColour, paths: uPlot.paths.bars!({ size: [0.8] }), fill: LossColour, points: { show: false } },
      ],
    };
    plot.current = new uPlot(opts, data, el);
    const ro = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(200, el.clientWidth), height: SidekickGraphHeight }));
    ro.observe(el);
    return () => (ro.disconnect(), plot.current?.destroy(), (plot.current = undefined));
    // The plot is built once; data changes go through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => plot.current?.setData(data), [data]);

  return <div className="sidekick-graph" ref={host} style={{ height: SidekickGraphHeight }} aria-label={`Time graph of ${label}`} data-points={points.length} />;
}
