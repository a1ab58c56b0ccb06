// The agent list: columns of spec 1 (Name, Targets, Machine Name, Version, Last Connected,
// Status, Mode, OS), sortable by a header click, filterable, resizable columns; a row click selects.
import { useState } from 'react';
import { filterRows, sortRows, type AgentRow, type SortKey } from './logic/agentRows';

const columns: [SortKey, string, number][] = [
  ['name', 'Name', 170],
  ['targets', 'Targets', 70],
  ['machineName', 'Machine Name', 140],
  ['version', 'Version', 80],
  ['lastConnected', 'Last Connected', 160],
  ['status', 'Status', 90],
  ['mode', 'Mode', 80],
  ['os', 'OS', 80],
];

export function AgentGrid({ rows, selectedId, onSelect }: { rows: AgentRow[]; selectedId: number | null; onSelect: (id: number) => void }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean } | undefined>();
  const [filter, setFilter] = useState('');
  const shown = sortRows(filterRows(rows, filter), sort);
  return (
    <div className="agent-grid">
      <input
        className="agent-filter"
        aria-label="Filter agents"
        placeholder="Filter..."
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setFilter('')}
      />
      <table>
        <thead>
          <tr>
            {columns.map(([key, label, width]) => (
              <th key={key} style={{ width }} aria-sort={sort?.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                <button type="button" onClick={() => setSort(sort?.key === key && !sort.descending ? { key, descending: true } : sort?.key === key ? undefined : { key, descending: false })}>
                  {label}
                  {sort?.key === key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.id} className={r.id === selectedId ? 'selected' : undefined} onClick={() => onSelect(r.id)} data-agent-id={r.id}>
              <td>{r.name}</td>
              <td className="num">{r.targets}</td>
              <td>{r.machineName}</td>
              <td>{r.version}</td>
              <td>{r.lastConnected}</td>
              <td className={`status status-${r.status.toLowerCase()}`}>{r.status}</td>
              <td>{r.mode}</td>
              <td>{r.os}</td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="empty">
                No agents{filter ? ' match the filter' : ' yet: Create Agent makes one'}.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
