// The links grid (spec 1 "LiveShare link management"): Description, Creator, Shared list
// (hidden when filtered), Creation Date, Expiration Date, URL and Actions (Copy URL, Edit,
// Disable or Enable, Delete; 475 wide). Headers sort (click again to reverse), a filter row
// filters each column, and the column edges can be dragged to resize. A plain table: a few
// dozen links need no canvas grid.
import { Link } from 'react-router-dom';
import { useState } from 'react';
import type { LiveShareLink } from '../../../server/contract/liveshare';
import { LinksActionsWidth, columnValue, sharedListCell, visibleLinks, type GridView, type LinkColumn } from './logic/links';

// Shares of the grid's width (issue 41 item 9: fixed widths summed to 1385 px with Actions, so
// at 1600 px the Delete button sat past the pane's edge); the URL column takes what is left.
const Columns: { key: LinkColumn; title: string; width?: string }[] = [
  { key: 'Description', title: 'Description', width: '14%' },
  { key: 'Creator', title: 'Creator', width: '10%' },
  { key: 'Shared', title: 'Shared list', width: '14%' },
  { key: 'CreationDate', title: 'Creation Date', width: '12%' },
  { key: 'ExpirationDate', title: 'Expiration Date', width: '12%' },
  { key: 'URL', title: 'URL' },
];
/** The spec's 475 px for the four buttons in a row where there is room; else they wrap in a third of the grid. */
const ActionsWidth = `min(${LinksActionsWidth}px, 30%)`;

export interface LinkActions {
  onCopy: (l: LiveShareLink) => void;
  onEdit: (l: LiveShareLink) => void;
  onToggle: (l: LiveShareLink) => void;
  onDelete: (l: LiveShareLink) => void;
}

export function LinksGrid({ links, names, filtered, actions }: { links: LiveShareLink[]; names: ReadonlyMap<string, string>; filtered: boolean; actions: LinkActions }) {
  const [view, setView] = useState<GridView>({ filters: {} });
  const columns = Columns.filter((c) => !(filtered && c.key === 'Shared'));
  const shown = visibleLinks(links, view, names);
  const sortBy = (column: LinkColumn) =>
    setView((v) => ({ ...v, sort: { column, descending: v.sort?.column === column ? !v.sort.descending : false } }));
  const arrow = (column: LinkColumn) => (view.sort?.column === column ? (view.sort.descending ? ' ▼' : ' ▲') : '');

  return (
    <div className="liveshare-grid-wrap">
      <table className="liveshare-grid" role="grid">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={{ width: c.width }} aria-sort={view.sort?.column === c.key ? (view.sort.descending ? 'descending' : 'ascending') : 'none'}>
                <div className="resizable">
                  <button type="button" className="sort-header" onClick={() => sortBy(c.key)}>{c.title}{arrow(c.key)}</button>
                </div>
              </th>
            ))}
            <th style={{ width: ActionsWidth }}>Actions</th>
          </tr>
          <tr className="filter-row">
            {columns.map((c) => (
              <th key={c.key}>
                <input type="search" aria-label={`Filter ${c.title}`} placeholder="Filter..." value={view.filters[c.key] ?? ''}
                  onChange={(e) => setView((v) => ({ ...v, filters: { ...v.filters, [c.key]: e.target.value } }))} />
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {shown.map((l) => (
            <tr key={l.ShareId} className={l.Active ? '' : 'inactive'} data-testid="link-row">
              {columns.map((c) => (
                // The whole text in a title: the cell ellipsizes what its width cannot show.
                <td key={c.key} title={columnValue(l, c.key, names)}>{cell(l, c.key, names)}</td>
              ))}
              <td className="actions-cell">
                <div className="actions">
                  <button type="button" className="button secondary" onClick={() => actions.onCopy(l)} disabled={!l.LiveShareURL}>Copy URL</button>
                  <button type="button" className="button secondary" onClick={() => actions.onEdit(l)}>Edit</button>
                  <button type="button" className="button secondary" onClick={() => actions.onToggle(l)}>{l.Active ? 'Disable' : 'Enable'}</button>
                  <button type="button" className="button danger" onClick={() => actions.onDelete(l)}>Delete</button>
                </div>
              </td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={columns.length + 1} className="hint">{links.length ? 'No link matches the filters.' : 'No LiveShare links yet.'}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function cell(l: LiveShareLink, column: LinkColumn, names: ReadonlyMap<string, string>) {
  if (column === 'Shared') {
    const s = sharedListCell(l.SummaryID, names);
    return s.href ? <Link to={s.href}>{s.text}</Link> : <span className="missing">{s.text}</span>;
  }
  if (column === 'URL') return <span className="url" title={l.LiveShareURL}>{l.LiveShareURL}</span>;
  if (column === 'Description') return <>{l.Description}{l.Active ? '' : <span className="badge">inactive</span>}</>;
  return columnValue(l, column, names);
}
