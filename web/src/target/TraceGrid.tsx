// The trace grid (spec 2 "Trace grid") on glide-data-grid: the header row (_h_0, the target,
// not selectable) and one row per hop; columns from ColumnDefs in the user's order and
// widths (Target-Columns); the Graph column drawn on the canvas with the scale in its header.
// Selection follows logic/rowSelection (plain click, alt/shift/meta toggles).
import '@glideapps/glide-data-grid/dist/index.css';
import {
  DataEditor,
  GridCellKind,
  type GridCell,
  type GridColumn,
  type Item,
  type Theme,
  CompactSelection,
  type GridSelection,
  type DrawHeaderCallback,
  type DrawCellCallback,
  type GridMouseEventArgs,
} from '@glideapps/glide-data-grid';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { figureCellText } from './logic/gridFigures';
import { graphColumnWidth } from './logic/gridFit';
import type { ColumnDef, TargetRow } from '../../../server/contract/targets';
import { ColumnAlign } from '../../../server/contract/targets';
import { drawScaleHeader, hopGraphCell, hopGraphRenderer } from './graphCellRenderer';
import { latencyColourClass } from './logic/hopStatus';
import { isHeaderRow } from './logic/rowId';
import type { ClickModifiers } from './logic/rowSelection';
import { LatencyColours, MutedLossColour } from './colours';
import type { LossNotOnPath } from '../../../server/contract/hop-loss';
import { agentTooltip, cellTooltip, type KnownAgent } from './gridTooltip';
import { useSpacedValue } from './useSpacedValue';

const theme: Partial<Theme> = {
  accentColor: '#0d9488',
  accentLight: 'rgba(13, 148, 136, 0.12)',
  textDark: '#1b2430',
  textMedium: '#475569',
  textLight: '#94a3b8',
  textHeader: '#334155',
  bgHeader: '#f1f4f8',
  bgHeaderHovered: '#e6ebf1',
  bgHeaderHasFocus: '#e6ebf1',
  borderColor: '#e5e9ef',
  horizontalBorderColor: '#eef1f5',
  headerFontStyle: '600 12px',
  baseFontStyle: '13px',
  fontFamily: 'Inter, "Segoe UI", system-ui, -apple-system, "Helvetica Neue", Arial, sans-serif',
  cellHorizontalPadding: 8,
};

const NumericLatency = new Set(['Avg', 'Min', 'Max', 'Cur']);
const emptySelection: GridSelection = { columns: CompactSelection.empty(), rows: CompactSelection.empty() };
const noop = () => undefined;

export interface TraceGridProps {
  rows: TargetRow[];
  columns: ColumnDef[];
  selection: readonly string[];
  warnMs: number;
  badMs: number;
  scaleMaxMs: number;
  scaleFixed: boolean;
  height: number;
  /** Rows with a timeline graph shown. */
  graphed: ReadonlySet<string>;
  onRowClick: (rowId: string, modifiers: ClickModifiers) => void;
  onRowContextMenu: (row: TargetRow, x: number, y: number) => void;
  onColumnResize: (name: string, width: number) => void;
  onColumnMove: (fromName: string, toName: string) => void;
  rowHeight?: number;
  /** Agents known to the console, for the Agent cell's tooltip and offline marker. */
  agents: readonly KnownAgent[];
  /** Select All (Ctrl/Cmd+A in the grid) toggles the selection of every hop row. */
  onSelectAll: () => void;
  /** Called after the grid painted a cell of its last row (the "fully drawn" signal of the perf suite). */
  onLastRowPainted?: (rowCount: number) => void;
  /** The summary grid: the column its rows are sorted by (arrow in the header). */
  sort?: { Column: string; Ascending: boolean };
  /** The summary grid: a header click (sorts by that column). */
  onHeaderClick?: (name: string) => void;
  /** Rows an Insights hover decorates (spec 2 row decoration Highlight, Diminish). */
  decorations?: ReadonlyMap<string, 'Highlight' | 'Diminish'>;
  /** Hop rows whose loss is not loss on the path (logic/mutedLoss): grey, no bar, a tooltip. */
  mutedLoss?: ReadonlyMap<string, LossNotOnPath>;
}

/** Room for a vertical scrollbar when the hops outgrow the pane (the Graph column grows into it otherwise). */
const ScrollbarAllowancePx = 16;

/** Least time between two row updates of the grid (see useSpacedValue): more than glide's 200 ms. */
const GridRowsGapMs = 300;

export function TraceGrid(props: TraceGridProps) {
  const p = { ...props, rows: useSpacedValue(props.rows, GridRowsGapMs) };
  const shown = useMemo(() => p.columns.filter((c) => c.Visible), [p.columns]);
  const selected = useMemo(() => new Set(p.selection), [p.selection]);
  const pointer = useRef<{ x: number; y: number; mods: ClickModifiers }>({ x: 0, y: 0, mods: {} });

  // The pane's inner size: the grid is drawn exactly that big, so its scrollbars are inside
  // the pane (a grid 2 px taller than the bordered pane hid the horizontal one).
  const box = useRef<HTMLDivElement>(null);
  const [paneSize, setPaneSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setPaneSize({ width: el.clientWidth, height: el.clientHeight });
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, []);
  const otherWidths = useMemo(() => shown.filter((c) => c.Name !== 'Graph').map((c) => c.Width), [shown]);

  const graphWidth = graphColumnWidth(paneSize.width - ScrollbarAllowancePx, otherWidths, shown.find((c) => c.Name === 'Graph')?.Width ?? 0);
  const gridColumns: GridColumn[] = useMemo(
    () =>
      shown.map((c) => ({
        id: c.Name,
        title: c.Name === 'Graph' ? '' : p.sort?.Column === c.Name ? `${c.Caption} ${p.sort.Ascending ? '▲' : '▼'}` : c.Caption,
        // The Graph column gives way in a narrow pane, so the others are not cut off.
        width: c.Name === 'Graph' ? graphWidth : c.Width,
        // The Graph column takes the row's spare width.
        grow: c.Name === 'Graph' ? 1 : undefined,
        hasMenu: false,
        themeOverride: c.Name === 'Graph' ? { cellHorizontalPadding: 0 } : undefined,
      })),
    [shown, graphWidth, p.sort],
  );

  const getCellContent = useCallback(
    ([col, rowIndex]: Item): GridCell => {
      const row = p.rows[rowIndex];
      const def = shown[col];
      if (!row || !def) return { kind: GridCellKind.Text, data: '', displayData: '', allowOverlay: false };
      if (def.Name === 'Graph') {
        return hopGraphCell({
          Minimum: row.Minimum,
          Average: row.Average,
          Maximum: row.Maximum,
          PL: row.PL,
          lossMuted: p.mutedLoss?.has(row.UniqueID),
          scaleMaxMs: p.scaleMaxMs,
          warnMs: p.warnMs,
          badMs: p.badMs,
        });
      }
      const header = isHeaderRow(row.UniqueID);
      // A window without samples says so rather than 0 (logic/gridFigures).
      let text = figureCellText(def.Name, row.Columns[def.Name] ?? '', row.TotalCount);
      if (def.Name === 'Hop' && header) text = '';
      if (def.Name === 'DNSName' && header) text = row.DNSName || row.IP;
      if (def.Name === 'IPAddress' && header) text = row.IP;
      // Latency cells in the hop's colour; loss cells red when there is loss on the path, grey
      // when the hop's loss is not (a silent or rate-limiting router, logic/mutedLoss).
      let colour: string | undefined;
      if (NumericLatency.has(def.Name)) {
        const value = def.Name === 'Avg' ? row.Average : def.Name === 'Min' ? row.Minimum : def.Name === 'Max' ? row.Maximum : row.Current;
        const cls = latencyColourClass(value, p.warnMs, p.badMs);
        if (cls && cls !== 'Good') colour = LatencyColours[cls];
        if (text === '*') colour = p.mutedLoss?.has(row.UniqueID) ? MutedLossColour : LatencyColours.Bad;
      } else if (def.Name === 'PacketLoss' && (row.PL ?? 0) > 0) {
        colour = p.mutedLoss?.has(row.UniqueID) ? MutedLossColour : LatencyColours.Bad;
      } else if (def.Name === 'Agent' && agentTooltip(row.HubSentinelID, p.agents).offline) {
        colour = LatencyColours.Bad; // the red offline marker
      }
      const cell: GridCell = {
        kind: GridCellKind.Text,
        data: text,
        displayData: text,
        allowOverlay: false,
        contentAlign: def.Align === ColumnAlign.Right ? 'right' : def.Align === ColumnAlign.Center ? 'center' : 'left',
        themeOverride: colour ? { textDark: colour } : undefined,
      };
      return cell;
    },
    [p.rows, shown, p.scaleMaxMs, p.warnMs, p.badMs, p.agents, p.mutedLoss],
  );

  // Tooltips (spec 2): shown under the hovered cell when it has one.
  const [tip, setTip] = useState<{ text: string; x: number; y: number } | null>(null);
  const onItemHovered = useCallback(
    (args: GridMouseEventArgs) => {
      if (args.kind !== 'cell') return setTip(null);
      const [col, rowIndex] = args.location;
      const row = p.rows[rowIndex];
      const def = shown[col];
      const text = row && def ? cellTooltip(row, def.Name, p.agents, p.mutedLoss?.get(row.UniqueID)) : null;
      setTip(text ? { text, x: args.bounds.x + 8, y: args.bounds.y + args.bounds.height + 4 } : null);
    },
    [p.rows, shown, p.agents, p.mutedLoss],
  );

  const getRowThemeOverride = useCallback(
    (rowIndex: number): Partial<Theme> | undefined => {
      const row = p.rows[rowIndex];
      if (!row) return undefined;
      if (isHeaderRow(row.UniqueID)) return { bgCell: '#f8fafc', baseFontStyle: '600 13px', textDark: '#0f172a' };
      // Adjacent highlighted rows share one colour: consecutive hops read as one block.
      const decoration = p.decorations?.get(row.UniqueID);
      if (decoration === 'Highlight') return { bgCell: 'rgba(220, 38, 38, 0.14)' };
      if (decoration === 'Diminish') return { textDark: '#94a3b8', textMedium: '#cbd5e1', bgCell: '#f8fafc' };
      if (selected.has(row.UniqueID)) return { bgCell: 'rgba(13, 148, 136, 0.12)' };
      return undefined;
    },
    [p.rows, selected, p.decorations],
  );

  // Cheap: one comparison per painted cell; the callback runs only for the last row.
  const painted = useRef(p.onLastRowPainted);
  painted.current = p.onLastRowPainted;
  const rowCount = p.rows.length;
  const drawCell: DrawCellCallback = useCallback(
    (args, drawContent) => {
      drawContent();
      if (args.row === rowCount - 1 && args.col === 0) painted.current?.(rowCount);
    },
    [rowCount],
  );

  const drawHeader: DrawHeaderCallback = useCallback(
    (args, drawContent) => {
      if (args.column.id !== 'Graph') return drawContent();
      args.ctx.fillStyle = args.theme.bgHeader;
      args.ctx.fillRect(args.rect.x, args.rect.y, args.rect.width, args.rect.height);
      drawScaleHeader(args.ctx, args.rect, p.scaleMaxMs, p.scaleFixed, args.theme.fontFamily);
    },
    [p.scaleMaxMs, p.scaleFixed],
  );

  return (
    <div
      ref={box}
      className="trace-grid"
      data-testid="trace-grid"
      data-row-count={rowCount}
      data-graph-column-width={shown.some((c) => c.Name === 'Graph') ? graphWidth : undefined}
      data-scale={`${p.scaleMaxMs}${p.scaleFixed ? ' fixed' : ''}`}
      data-decorations={p.decorations?.size ? [...p.decorations].map(([id, d]) => `${id}:${d}`).join(' ') : undefined}
      data-muted-loss={p.mutedLoss?.size ? [...p.mutedLoss].map(([id, why]) => `${id}:${why}`).join(' ') : undefined}
      onMouseDownCapture={(e) => (pointer.current = { x: e.clientX, y: e.clientY, mods: { altKey: e.altKey, shiftKey: e.shiftKey, metaKey: e.metaKey } })}
      onMouseLeave={() => setTip(null)}
      onKeyDownCapture={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
          e.preventDefault();
          e.stopPropagation();
          p.onSelectAll();
        }
      }}
      onContextMenuCapture={(e) => {
        e.preventDefault();
        pointer.current = { ...pointer.current, x: e.clientX, y: e.clientY };
      }}
    >
      <DataEditor
        columns={gridColumns}
        rows={p.rows.length}
        getCellContent={getCellContent}
        getRowThemeOverride={getRowThemeOverride}
        customRenderers={[hopGraphRenderer]}
        drawHeader={drawHeader}
        drawCell={p.onLastRowPainted ? drawCell : undefined}
        onItemHovered={onItemHovered}
        theme={theme}
        width="100%"
        height={paneSize.height > 0 ? paneSize.height : p.height}
        rowHeight={p.rowHeight ?? 30}
        headerHeight={34}
        smoothScrollX
        smoothScrollY
        rowMarkers="none"
        rangeSelect="none"
        columnSelect="none"
        rowSelect="none"
        gridSelection={emptySelection}
        onGridSelectionChange={noop}
        getCellsForSelection
        minColumnWidth={10}
        onColumnResize={(column, newSize) => p.onColumnResize(String(column.id), newSize)}
        onColumnMoved={(from, to) => p.onColumnMove(shown[from].Name, shown[to].Name)}
        onHeaderClicked={p.onHeaderClick ? (col) => shown[col] && p.onHeaderClick!(shown[col].Name) : undefined}
        onCellClicked={([, rowIndex]) => {
          const row = p.rows[rowIndex];
          if (row) p.onRowClick(row.UniqueID, pointer.current.mods);
        }}
        onCellContextMenu={([, rowIndex], e) => {
          e.preventDefault();
          const row = p.rows[rowIndex];
          if (row) p.onRowContextMenu(row, e.bounds.x + e.localEventX, e.bounds.y + e.localEventY);
        }}
      />
      {tip && (
        <div className="grid-tooltip" role="tooltip" style={{ left: tip.x, top: tip.y }}>
          {tip.text}
        </div>
      )}
    </div>
  );
}
