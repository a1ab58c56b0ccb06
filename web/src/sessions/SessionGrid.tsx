// The Sessions grid: a header per column (click sorts, the edge drags the width), a filter
// field per column, and the rows with the Actions (Open, Export, Delete). Only the rows in
// view are drawn (fixed row height), so 10,000 sessions draw as fast as 20.
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { SessionState } from '../../../server/contract/sessions';
import { MinColumnWidth, type ColumnKey, type Filters, type SessionColumn, type SessionRow, type Sort } from './logic/sessionRows';

export const RowHeight = 30;
const Overscan = 10;
const ActionsWidth = 180;

export interface SessionGridProps {
  columns: SessionColumn[];
  rows: SessionRow[];
  total: number;
  sort: Sort;
  onSort: (key: ColumnKey) => void;
  filters: Filters;
  onFilter: (key: ColumnKey, text: string) => void;
  onOpen: (row: SessionRow) => void;
  onExport: (row: SessionRow) => void;
  onDelete: (row: SessionRow) => void;
  loading: boolean;
}

/** Column widths, changed by dragging a header's right edge (not stored: spec 2 names no key). */
function useColumnWidths(columns: SessionColumn[]) {
  const [widths, setWidths] = useState<Partial<Record<ColumnKey, number>>>({});
  const widthOf = (c: SessionColumn) => widths[c.key] ?? c.width;
  const startResize = (c: SessionColumn, e: ReactPointerEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const x0 = e.clientX;
    const w0 = widthOf(c);
    const move = (ev: PointerEvent) => setWidths((w) => ({ ...w, [c.key]: Math.max(MinColumnWidth, w0 + ev.clientX - x0) }));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return { widthOf, startResize, template: [...columns.map((c) => `${widthOf(c)}px`), `${ActionsWidth}px`].join(' ') };
}

/** The scroll position and height of the body, for drawing only the rows in view. */
function useViewport() {
  const ref = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setView({ top: el.scrollTop, height: el.clientHeight });
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    el.addEventListener('scroll', update, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', update);
    };
  }, []);
  return { ref, view };
}

export function SessionGrid(p: SessionGridProps) {
  const { widthOf, startResize, template } = useColumnWidths(p.columns);
  const { ref, view } = useViewport();
  const first = Math.max(0, Math.floor(view.top / RowHeight) - Overscan);
  const last = Math.min(p.rows.length, Math.ceil((view.top + view.height) / RowHeight) + Overscan);
  const shown = p.rows.slice(first, last);
  const width = p.columns.reduce((s, c) => s + widthOf(c), ActionsWidth);
  return (
    <div className="session-grid" data-testid="session-grid" data-row-count={p.rows.length} data-total={p.total} data-loading={p.loading}>
      <div className="session-grid-scroll" ref={ref}>
        <div className="session-grid-head" style={{ gridTemplateColumns: template, width }}>
          {p.columns.map((c) => (
            <div key={c.key} className="session-grid-th" role="columnheader" aria-sort={p.sort.key === c.key ? (p.sort.descending ? 'descending' : 'ascending') : 'none'}>
              <button type="button" title={c.tooltip} onClick={() => p.onSort(c.key)}>
                {c.title}
                {p.sort.key === c.key ? (p.sort.descending ? ' ▾' : ' ▴') : ''}
              </button>
              <span className="session-grid-resize" onPointerDown={(e) => startResize(c, e)} aria-hidden="true" />
            </div>
          ))}
          <div className="session-grid-th" role="columnheader">
            <span className="session-grid-title">Actions</span>
          </div>
          {p.columns.map((c) => (
            <div key={c.key} className="session-grid-filter">
              <input
                aria-label={`Filter ${c.title}`}
                placeholder="Filter..."
                value={p.filters[c.key] ?? ''}
                onChange={(e) => p.onFilter(c.key, e.target.value)}
                onKeyDown={(e) => e.key === 'Escape' && p.onFilter(c.key, '')}
              />
            </div>
          ))}
          <div className="session-grid-filter" />
        </div>
        <div className="session-grid-body" style={{ height: p.rows.length * RowHeight, width }}>
          {shown.map((r, i) => (
            <div
              key={r.id}
              className="session-grid-row"
              role="row"
              data-session-id={r.id}
              style={{ top: (first + i) * RowHeight, height: RowHeight, gridTemplateColumns: template }}
            >
              {p.columns.map((c) => (
                <div key={c.key} className={`session-grid-td${c.numeric ? ' num' : ''}`} data-column={c.key} title={r.text[c.key]}>
                  {r.text[c.key]}
                </div>
              ))}
              <div className="session-grid-td actions">
                <button type="button" className="link-button" onClick={() => p.onOpen(r)}>
                  Open
                </button>
                <button type="button" className="link-button" onClick={() => p.onExport(r)}>
                  Export
                </button>
                <button
                  type="button"
                  className="link-button danger"
                  onClick={() => p.onDelete(r)}
                  disabled={r.state === SessionState.Active || r.state === SessionState.Pause}
                  title={r.state === SessionState.Active || r.state === SessionState.Pause ? 'Close the target first: an open session cannot be deleted.' : undefined}
                >
                  Delete
                </button>
              </div>
            </div>
          ))}
        </div>
        {!p.loading && p.rows.length === 0 && <div className="session-grid-empty">{p.total ? 'No session matches the filters.' : 'No sessions yet.'}</div>}
      </div>
    </div>
  );
}
