// Test-only entry (never shipped in dist/web): the console's TraceGrid with 5,000 synthetic
// rows filling the window, so the browser perf suite can measure scrolling a large grid.
// Built by web/perf/vite.config.ts into dist/web-perf/. Rows are deterministic.
import { createRoot } from 'react-dom/client';
import { useState } from 'react';
import { ColumnGridType, type TargetRow } from '../../server/contract/targets';
import { columnDefs } from '../../server/data/column-defs';
import { latencyDisplayText, LatencyCode } from '../../engine/latency-codes';
import { TraceGrid } from '../src/target/TraceGrid';

const RowCount = Number(new URLSearchParams(location.search).get('rows') ?? 5000);
const HopsPerTarget = 30;

let seed = 77;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;

function syntheticRows(n: number): TargetRow[] {
  const rows: TargetRow[] = [];
  for (let i = 0; i < n; i++) {
    const target = Math.floor(i / HopsPerTarget) + 1;
    const hop = (i % HopsPerTarget) + 1;
    const base = 1 + hop * 1.7;
    const avg = base + rnd() * 3;
    const min = base * 0.9;
    const max = avg + rnd() * 25;
    const pl = rnd() < 0.1 ? Math.round(rnd() * 40) : 0;
    const cur = rnd() < 0.03 ? LatencyCode.Timeout : avg + rnd() * 2;
    const ip = `10.${target >> 8}.${target & 255}.${hop}`;
    rows.push({
      UniqueID: `${target}_h_${hop}`,
      DNSName: `hop${hop}.target${target}.example`,
      IP: ip,
      HopNum: hop,
      HopDetails: null,
      Columns: {
        Hop: String(hop),
        ErrCount: String(pl),
        PacketLoss: String(pl),
        IPAddress: ip,
        DNSName: `hop${hop}.target${target}.example`,
        Avg: avg.toFixed(1),
        Min: min.toFixed(1),
        Max: max.toFixed(1),
        Cur: latencyDisplayText(cur),
        RouteLength: String(HopsPerTarget),
      },
      IsRunning: true,
      Editable: true,
      HasAlert: false,
      GoodCount: 100 - pl,
      TotalCount: 100,
      Average: avg,
      Minimum: min,
      Maximum: max,
      Current: cur,
      PL: pl,
      TraceInterval: 2.5,
      SentinelId: '',
      HubSentinelID: 0,
      Start: null,
      End: null,
      TraceStart: new Date(0).toISOString(),
      TraceEnd: null,
    });
  }
  return rows;
}

const rows = syntheticRows(RowCount);
const columns = columnDefs(ColumnGridType.Summary).map((c) => ({ ...c, Visible: c.Visible || c.Name === 'Min' || c.Name === 'Max' }));
const noop = () => undefined;

function Page() {
  const [height] = useState(() => window.innerHeight);
  return (
    <TraceGrid
      rows={rows}
      columns={columns}
      selection={[]}
      warnMs={50}
      badMs={100}
      scaleMaxMs={100}
      scaleFixed={false}
      height={height}
      graphed={new Set()}
      onRowClick={noop}
      onRowContextMenu={noop}
      onColumnResize={noop}
      onColumnMove={noop}
      agents={[]}
      onSelectAll={noop}
      onLastRowPainted={(count) => (document.body.dataset.lastRowPainted = String(count))}
    />
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
document.body.dataset.rows = String(rows.length);
