// The per-hop "Target Details" pop-up (spec 3 section 2.3): the box plot over time, the
// kurtosis/skewness and deviation charts and the latency/loss chart (heights 800, 280, 280,
// 180; spec 3 section 9), and the hop's figures.
import { useMemo } from 'react';
import type { HopDetail } from '../../../server/contract/insights';
import { Modal } from '../components/Modal';
import { WisdomChartView, type ChartSpec } from './WisdomChartView';

export const ChartHeights = [800, 280, 280, 180] as const;
const Width = 760;

export function chartsOf(d: HopDetail): ChartSpec[] {
  const rows = d.BoxPlotChart.Data;
  const x = d.WisdomCharts[0]?.TimeSeries ?? rows.map((_, i) => i);
  const box: ChartSpec = {
    title: d.BoxPlotChart.Title,
    x,
    height: ChartHeights[0],
    series: [
      { label: 'Q1', values: rows.map((r) => r.Q1) },
      { label: 'Q3', values: rows.map((r) => r.Q3) },
      { label: 'Median', values: rows.map((r) => r.Median) },
      { label: 'Mean', values: rows.map((r) => r.Mean), dash: true },
      { label: 'Lower', values: rows.map((r) => r.Lower), dash: true },
      { label: 'Upper', values: rows.map((r) => r.Upper), dash: true },
    ],
    band: [0, 1],
  };
  const others = d.WisdomCharts.map((c, i): ChartSpec => ({
    title: c.Title,
    x: c.TimeSeries,
    height: ChartHeights[Math.min(i + 1, 3)],
    series: c.Series.map((label, k) => ({ label, values: c.SeriesData[k] ?? [] })),
  }));
  return [box, ...others];
}

export function TargetDetailsDialog({ detail, onClose }: { detail: HopDetail; onClose: () => void }) {
  const charts = useMemo(() => chartsOf(detail), [detail]);
  return (
    <Modal title="Target Details" onClose={onClose} width={Width + 48}>
      <div className="modal-body target-details">
        <h3>
          Hop #{detail.HopNumber}: {detail.Name}
        </h3>
        <dl className="detail-stats">
          {detail.Details.map((s) => (
            <div key={s.Key}>
              <dt>{s.Name}</dt>
              <dd>
                {s.Value ?? '-'} {s.Measure}
              </dd>
            </div>
          ))}
        </dl>
        {charts.map((c) => (
          <WisdomChartView key={c.title} spec={c} width={Width} />
        ))}
      </div>
    </Modal>
  );
}
